// A file's definitions (`rt outline`, `rt open PATH:@Class.method`): classes,
// functions, methods, interfaces, types, structs, enums, traits, impls and top-level constants,
// in file order, with the names of the definitions around them. Pure: walks a parsed tree by
// node types, one table a language (the grammars' tags.scm queries are not in the packages rt
// uses, and a table is as short).
//
// Function bodies are not entered (a helper inside a function is not a definition of the
// file), containers are: classes, impls, namespaces, modules.

import type { Node, Tree } from 'web-tree-sitter';
import type { LanguageId } from './languages.js';

export interface Definition {
  /**
   * class, function, method, interface, type, struct, enum, trait, impl, module, namespace,
   * const, macro, key; h1-h6 (Markdown).
   */
  readonly kind: string;
  readonly name: string;
  /** The names of the enclosing definitions and this one, joined by `.`: `Cart.add` (a Markdown heading's anchor). */
  readonly qualifiedName: string;
  /** 1-based line it is listed by: its `def`/`class`/`function` line, below its decorators and doc comment. */
  readonly line: number;
  /** 1-based first line (its decorators, doc comment, `export` or `template<…>` included) and last line. */
  readonly startLine: number;
  readonly endLine: number;
  /** A Markdown heading's level, 1 to 6. */
  readonly level?: number;
  /**
   * Where it joins several parts (overload signatures and their implementation, a getter and its
   * setter): the line each part after the first is listed by, ascending.
   */
  readonly parts?: readonly number[];
}

interface Rule {
  readonly kind: string;
  /** Its members are definitions too (a class's methods), qualified by its name. */
  readonly container?: boolean;
  /** The name, when it is not the node's `name` field; none (undefined or '') leaves the node unlisted. */
  readonly name?: (node: Node) => string | undefined;
}

type Rules = Readonly<Record<string, Rule>>;

const JS: Rules = {
  function_declaration: { kind: 'function' },
  generator_function_declaration: { kind: 'function' },
  class_declaration: { kind: 'class', container: true },
  abstract_class_declaration: { kind: 'class', container: true },
  class: { kind: 'class', container: true },
  method_definition: { kind: 'method' },
  abstract_method_signature: { kind: 'method' },
  interface_declaration: { kind: 'interface', container: true },
  type_alias_declaration: { kind: 'type' },
  enum_declaration: { kind: 'enum' },
  internal_module: { kind: 'namespace', container: true },
  // `module X {}`, and `declare module "x" {}` by the module's name unquoted.
  module: { kind: 'namespace', container: true, name: (node) => unquoted(node.childForFieldName('name')?.text) },
  // `static create = () => …`: a field holding a function is a method; other fields are not listed.
  public_field_definition: { kind: 'function', name: (node) => functionField(node, 'name') },
  field_definition: { kind: 'function', name: (node) => functionField(node, 'property') },
  function_signature: { kind: 'function' },
  method_signature: { kind: 'method' },
};

const PYTHON: Rules = {
  function_definition: { kind: 'function' },
  class_definition: { kind: 'class', container: true },
  type_alias_statement: { kind: 'type', name: (node) => node.childForFieldName('left')?.text },
};

const GO: Rules = {
  function_declaration: { kind: 'function' },
  method_declaration: { kind: 'method' },
  type_spec: { kind: 'type' },
  type_alias: { kind: 'type' },
  const_spec: { kind: 'const' },
};

const RUST: Rules = {
  function_item: { kind: 'function' },
  function_signature_item: { kind: 'function' },
  struct_item: { kind: 'struct' },
  union_item: { kind: 'struct' },
  enum_item: { kind: 'enum' },
  trait_item: { kind: 'trait', container: true },
  impl_item: { kind: 'impl', container: true, name: (node) => typeName(node.childForFieldName('type')) },
  mod_item: { kind: 'module', container: true },
  const_item: { kind: 'const' },
  static_item: { kind: 'const' },
  type_item: { kind: 'type' },
  macro_definition: { kind: 'macro' },
};

const JAVA: Rules = {
  class_declaration: { kind: 'class', container: true },
  interface_declaration: { kind: 'interface', container: true },
  enum_declaration: { kind: 'enum', container: true },
  record_declaration: { kind: 'class', container: true },
  annotation_type_declaration: { kind: 'interface', container: true },
  method_declaration: { kind: 'method' },
  constructor_declaration: { kind: 'method' },
};

const C: Rules = {
  function_definition: { kind: 'function', name: (node) => declaratorName(node.childForFieldName('declarator')) },
  struct_specifier: { kind: 'struct', name: bodiedName },
  union_specifier: { kind: 'struct', name: bodiedName },
  enum_specifier: { kind: 'enum', name: bodiedName },
  type_definition: { kind: 'type', name: (node) => declaratorName(node.childForFieldName('declarator')) },
  preproc_function_def: { kind: 'macro' },
};

const CPP: Rules = {
  ...C,
  class_specifier: { kind: 'class', container: true, name: bodiedName },
  struct_specifier: { kind: 'struct', container: true, name: bodiedName },
  namespace_definition: { kind: 'namespace', container: true },
  alias_declaration: { kind: 'type' },
  concept_definition: { kind: 'type' },
};

const CSHARP: Rules = {
  class_declaration: { kind: 'class', container: true },
  struct_declaration: { kind: 'struct', container: true },
  interface_declaration: { kind: 'interface', container: true },
  record_declaration: { kind: 'class', container: true },
  enum_declaration: { kind: 'enum' },
  delegate_declaration: { kind: 'type' },
  method_declaration: { kind: 'method' },
  constructor_declaration: { kind: 'method' },
  property_declaration: { kind: 'property' },
  namespace_declaration: { kind: 'namespace', container: true },
  file_scoped_namespace_declaration: { kind: 'namespace', container: true },
};

const RUBY: Rules = {
  class: { kind: 'class', container: true },
  module: { kind: 'module', container: true },
  method: { kind: 'method' },
  singleton_method: { kind: 'method' },
};

const PHP: Rules = {
  class_declaration: { kind: 'class', container: true },
  interface_declaration: { kind: 'interface', container: true },
  trait_declaration: { kind: 'trait', container: true },
  enum_declaration: { kind: 'enum', container: true },
  function_definition: { kind: 'function' },
  method_declaration: { kind: 'method' },
  const_element: { kind: 'const', name: (node) => node.namedChild(0)?.text },
};

const BASH: Rules = {
  function_definition: { kind: 'function' },
};

const RULES: Partial<Record<LanguageId, Rules>> = {
  javascript: JS,
  typescript: JS,
  tsx: JS,
  python: PYTHON,
  go: GO,
  rust: RUST,
  java: JAVA,
  c: C,
  cpp: CPP,
  csharp: CSHARP,
  ruby: RUBY,
  php: PHP,
  bash: BASH,
};

/** Nodes that are a definition's outer layer: the definition's range starts with them. */
const WRAPPERS = new Set(['export_statement', 'decorated_definition', 'template_declaration', 'ambient_declaration']);

/** Go's `type X …` and `const X = …`: the outer layer of their one spec (not of a `type ( … )` group's). */
const GO_DECLARATIONS = new Set(['type_declaration', 'const_declaration']);

/** Definitions whose functions are methods. */
const TYPE_KINDS = new Set(['class', 'struct', 'interface', 'trait', 'impl']);

/** Bodies of functions: not entered. */
const FUNCTION_KINDS = new Set(['function', 'method', 'macro', 'const', 'type', 'property']);

/** What a function's value is, in a JavaScript variable, field or default export. */
const FUNCTION_VALUES = new Set(['function_expression', 'function', 'arrow_function', 'generator_function']);

/** TypeScript declarations without a body: overload signatures, joined to the definition that follows them. */
const SIGNATURES = new Set(['function_signature', 'method_signature', 'abstract_method_signature']);

/** Decorators, annotations and attributes: above the line a definition is listed by, inside its range. */
const DECORATIONS = new Set(['decorator', 'marker_annotation', 'annotation', 'attribute_item', 'attribute_list']);

const COMMENTS = new Set(['comment', 'line_comment', 'block_comment']);

/**
 * A definition that joins the one of the same name just before it, as one definition whose range
 * spans both: an implementation after its overload signatures, a setter after its getter.
 */
type Group = 'overload' | 'accessor';

interface Found extends Definition {
  line: number;
  endLine: number;
  group: Group | undefined;
  parts?: number[];
}

export function outlineOf(language: LanguageId, tree: Tree): Definition[] {
  if (language === 'yaml') return yamlKeys(tree);
  const rules = RULES[language];
  if (!rules) return [];
  const found: Found[] = [];
  const constants = new Set<string>();
  const js = language === 'javascript' || language === 'typescript' || language === 'tsx';

  /** `node` (inside its outermost wrapper `top`, an `export`, decorators…) as a definition named `path`. */
  const add = (kind: string, path: readonly string[], node: Node, top: Node): void => {
    const group = groupOf(language, node, top);
    const qualifiedName = path.join('.');
    const last = found[found.length - 1];
    const joins = last?.group === 'overload' || (last?.group === 'accessor' && group === 'accessor');
    if (last?.qualifiedName === qualifiedName && joins) {
      last.endLine = lastLine(node);
      last.group = group;
      (last.parts ??= []).push(firstCodeRow(top) + 1);
      return;
    }
    const start = leadingStart(language, top);
    const name = path[path.length - 1]!;
    const line = firstCodeRow(top) + 1;
    found.push({ kind, name, qualifiedName, line, startLine: start + 1, endLine: lastLine(node), group });
  };

  // A function right inside a class, impl, trait or interface is a method (Python's, Rust's are
  // function nodes like any other).
  const visit = (node: Node, scope: readonly string[], outer: Node | undefined, depth: number, inType = false) => {
    if (depth > 64) return;
    const rule = rules[node.type];
    const top = outer ?? node;
    if (rule) {
      const name = (rule.name ? rule.name(node) : node.childForFieldName('name')?.text) ?? '';
      if (name !== '') {
        const qualifier = language === 'go' && node.type === 'method_declaration' ? receiverType(node) : undefined;
        const path = [...scope, ...(qualifier ? [qualifier] : []), ...qualifiedParts(name)];
        add(rule.kind === 'function' && (inType || qualifier) ? 'method' : rule.kind, path, node, top);
        if (FUNCTION_KINDS.has(rule.kind) || !rule.container) return;
        visitMembers(node, path, depth, TYPE_KINDS.has(rule.kind));
        return;
      }
      // A field that holds no function: its value is no definition of the file.
      if (node.type === 'public_field_definition' || node.type === 'field_definition') return;
    }
    if (js && jsDefinitions(node, scope, top, depth)) return;
    if (language === 'python' && node.type === 'expression_statement' && node.parent?.type === 'module') {
      const name = pythonConstant(node);
      // A constant assigned again (`NAMES = [n.strip() for n in NAMES]`) is defined by its first assignment.
      if (name !== undefined && !constants.has(name)) add('const', [name], node, top);
      if (name !== undefined) constants.add(name);
      return;
    }
    // `namespace X {}` is an expression statement to the TypeScript grammar.
    if (node.type === 'expression_statement' && node.namedChild(0)?.type === 'internal_module') {
      visit(node.namedChild(0)!, scope, outer, depth + 1, inType);
      return;
    }
    if (isFunctionBody(node)) return;
    const oneSpec = () => node.namedChildren.filter((c) => c.type.endsWith('_spec')).length === 1;
    const wraps = WRAPPERS.has(node.type) || (language === 'go' && GO_DECLARATIONS.has(node.type) && oneSpec());
    const nextOuter = wraps ? top : undefined;
    for (const child of node.namedChildren) visit(child, scope, nextOuter, depth + 1, inType);
  };

  const visitMembers = (node: Node, path: readonly string[], depth: number, isType: boolean): void => {
    for (const child of node.namedChildren) visit(child, path, undefined, depth + 1, isType);
  };

  /**
   * `const add = (a, b) => …`, `const LIMIT = 10` and `const Cart = class { … }` (with its
   * members) in a container's body; `export default function () {}` (named `default` when it
   * has no name of its own). False when `node` is none of them.
   */
  const jsDefinitions = (node: Node, scope: readonly string[], top: Node, depth: number): boolean => {
    if (node.type === 'export_statement') {
      const value = node.childForFieldName('value');
      const defines = value && (FUNCTION_VALUES.has(value.type) || value.type === 'class');
      if (!defines || node.childForFieldName('declaration')) return false;
      const path = [...scope, value.childForFieldName('name')?.text ?? 'default'];
      add(value.type === 'class' ? 'class' : 'function', path, value, top);
      if (value.type === 'class') visitMembers(value, path, depth, true);
      return true;
    }
    if (node.type !== 'lexical_declaration' && node.type !== 'variable_declaration') return false;
    const constant = node.firstChild?.type === 'const';
    for (const declarator of node.namedChildren) {
      if (declarator.type !== 'variable_declarator') continue;
      const name = declarator.childForFieldName('name');
      if (name?.type !== 'identifier') continue;
      const value = declarator.childForFieldName('value');
      const type = value?.type ?? '';
      const kind = FUNCTION_VALUES.has(type) ? 'function' : type === 'class' ? 'class' : constant ? 'const' : undefined;
      if (!kind) continue;
      const path = [...scope, name.text];
      add(kind, path, node, top);
      if (type === 'class') visitMembers(value!, path, depth, true);
    }
    return true;
  };

  visit(tree.rootNode, [], undefined, 0);
  return found.map(({ group: _group, ...definition }) => definition);
}

/** Python's decorators of a property's getter, setter or deleter. */
const ACCESSOR_DECORATOR = /^(?:(?:\w+\.)*(?:property|cached_property|abstractproperty)|\w+\.(?:[gs]etter|deleter))$/;

/** `"fs-extra"` as `fs-extra`: a module declared by a string. */
function unquoted(text: string | undefined): string | undefined {
  return text?.replace(/^(["'])(.*)\1$/, '$2');
}

/** A JavaScript class field's name (its name field is `field`) when its value is a function. */
function functionField(node: Node, field: string): string | undefined {
  const value = node.childForFieldName('value');
  return value && FUNCTION_VALUES.has(value.type) ? node.childForFieldName(field)?.text : undefined;
}

/**
 * The group a definition opens or continues: TypeScript's overload signatures and get/set
 * accessors; Python's `@overload` functions and `@property` with its `@x.setter`.
 */
function groupOf(language: LanguageId, node: Node, top: Node): Group | undefined {
  if (language === 'python') {
    const decorated = top.type === 'decorated_definition';
    const decorators = decorated ? top.namedChildren.filter((c) => c.type === 'decorator') : [];
    // `@property  # type: ignore[override]`: the comment is inside the decorator's node.
    const names = decorators.map((d) => d.namedChildren.find((c) => c.type !== 'comment')?.text ?? '');
    if (names.some((n) => /^(?:\w+\.)*overload$/.test(n))) return 'overload';
    if (names.some((n) => ACCESSOR_DECORATOR.test(n))) return 'accessor';
    return undefined;
  }
  if (SIGNATURES.has(node.type)) return 'overload';
  const accessor = node.type === 'method_definition' && node.children.some((c) => c.type === 'get' || c.type === 'set');
  if (accessor) return 'accessor';
  return undefined;
}

/** A module-level `LIMIT = 10` or `LIMIT: int = 10`: a name in capitals is a constant, by Python's convention. */
function pythonConstant(statement: Node): string | undefined {
  const assignment = statement.namedChild(0);
  if (statement.namedChildCount !== 1 || assignment?.type !== 'assignment') return undefined;
  const left = assignment.childForFieldName('left');
  return left?.type === 'identifier' && /^_*[A-Z][A-Z0-9_]*$/.test(left.text) ? left.text : undefined;
}

/**
 * The 0-based row `top` starts on, or that of the decorators, attributes and doc comments right
 * above it (a doc comment touching it or the attribute below it).
 */
function leadingStart(language: LanguageId, top: Node): number {
  let first = top;
  for (let at = top; ; at = first) {
    let prev = at.previousNamedSibling;
    // A body that starts with the definition (Ruby's) holds no comment above it: its siblings do.
    while (!prev && at.parent && at.parent.startIndex === at.startIndex) {
      at = at.parent;
      prev = at.previousNamedSibling;
    }
    const touching = prev !== null && lastRow(prev) >= first.startPosition.row - 1;
    if (!prev || !(DECORATIONS.has(prev.type) || (touching && isDocComment(language, prev)))) break;
    first = prev;
  }
  return first.startPosition.row;
}

/**
 * A comment that documents what follows it: `/** … *\/` and `///` in the languages of C's
 * comments; in Go every comment (its doc comments are plain); in Ruby, `#` comments (RDoc's).
 */
function isDocComment(language: LanguageId, node: Node): boolean {
  if (!COMMENTS.has(node.type)) return false;
  const text = node.text;
  if (language === 'go') return true;
  if (language === 'ruby') return text.startsWith('#') && !text.startsWith('#!');
  return /^(?:\/\*\*(?!\/)|\/\/\/(?!\/))/.test(text);
}

/** The 0-based row of a node's first token that is not a decorator, annotation, attribute or comment. */
function firstCodeRow(node: Node): number {
  return codeRowIn(node) ?? node.startPosition.row;
}

function codeRowIn(node: Node): number | undefined {
  for (const child of node.children) {
    if (DECORATIONS.has(child.type) || COMMENTS.has(child.type)) continue;
    // Java's modifiers hold its annotations and its keywords.
    const row = child.childCount === 0 ? child.startPosition.row : codeRowIn(child);
    if (row !== undefined) return row;
  }
  return undefined;
}

/** The 0-based last row of a node (see lastLine). */
function lastRow(node: Node): number {
  return lastLine(node) - 1;
}

/**
 * 1-based last line of a node, which some grammars end at the start of the next line (a macro's, a YAML value's
 * newline).
 */
function lastLine(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/** Expressions and loops: callbacks, closures and variables in them are not definitions of the file. */
const NOT_ENTERED = new Set([
  'expression_statement',
  'call_expression',
  'arrow_function',
  'function_expression',
  'function',
  'lambda',
  'assignment',
  'return_statement',
  'call',
  'macro_invocation',
  'let_declaration',
  'local_declaration_statement',
  'for_statement',
  'for_in_statement',
  'while_statement',
  'do_statement',
]);

function isFunctionBody(node: Node): boolean {
  return NOT_ENTERED.has(node.type);
}

/** `Foo::bar` (a C++ method defined out of its class) is bar, qualified by Foo. */
function qualifiedParts(name: string): string[] {
  return name.includes('::') ? name.split('::').filter((part) => part !== '') : [name];
}

function typeName(node: Node | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'generic_type') return typeName(node.childForFieldName('type'));
  if (node.type === 'scoped_type_identifier') return node.childForFieldName('name')?.text;
  return node.text;
}

function receiverType(method: Node): string | undefined {
  const receiver = method.childForFieldName('receiver');
  const type = receiver?.descendantsOfType(['type_identifier'])[0];
  return type?.text;
}

/** A C declarator's name: through pointers, parentheses and parameter lists to the identifier. */
function declaratorName(node: Node | null): string | undefined {
  let at = node;
  for (let guard = 0; at && guard < 16; guard++) {
    if (
      /^(?:identifier|field_identifier|type_identifier|qualified_identifier|destructor_name|operator_name)$/.test(
        at.type,
      )
    )
      return at.text;
    at = at.childForFieldName('declarator') ?? at.namedChild(0);
  }
  return undefined;
}

/** A struct, union, enum or class with a body (a definition, not a mention such as `struct s *p`). */
function bodiedName(node: Node): string | undefined {
  if (!node.childForFieldName('body')) return undefined;
  return node.childForFieldName('name')?.text;
}

/** A YAML file's top-level keys (`jobs`, `services`), as the map of the file. */
function yamlKeys(tree: Tree): Definition[] {
  const keys: Definition[] = [];
  for (const document of tree.rootNode.namedChildren) {
    const mapping = document.descendantsOfType('block_mapping')[0];
    if (!mapping) continue;
    for (const pair of mapping.namedChildren) {
      const key = pair.childForFieldName('key');
      if (pair.type !== 'block_mapping_pair' || !key) continue;
      const line = pair.startPosition.row + 1;
      const name = key.text;
      keys.push({ kind: 'key', name, qualifiedName: name, line, startLine: line, endLine: lastLine(pair) });
    }
  }
  return keys;
}
