// A file's definitions (SPEC §9 `rt outline`, `rt open PATH:@Class.method`): classes,
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
  /** class, function, method, interface, type, struct, enum, trait, impl, module, namespace, const, macro, key. */
  readonly kind: string;
  readonly name: string;
  /** The names of the enclosing definitions and this one, joined by `.`: `Cart.add`. */
  readonly qualifiedName: string;
  /** 1-based first line (its decorators, `export` or `template<…>` included) and last line. */
  readonly startLine: number;
  readonly endLine: number;
}

interface Rule {
  readonly kind: string;
  /** Its members are definitions too (a class's methods), qualified by its name. */
  readonly container?: boolean;
  /** The name, when it is not the node's `name` field. */
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
  module: { kind: 'namespace', container: true },
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
  javascript: JS, typescript: JS, tsx: JS, python: PYTHON, go: GO, rust: RUST, java: JAVA, c: C, cpp: CPP,
  csharp: CSHARP, ruby: RUBY, php: PHP, bash: BASH,
};

/** Nodes that are a definition's outer layer: the definition's range starts with them. */
const WRAPPERS = new Set(['export_statement', 'decorated_definition', 'template_declaration', 'ambient_declaration']);

/** Definitions whose functions are methods. */
const TYPE_KINDS = new Set(['class', 'struct', 'interface', 'trait', 'impl']);

/** Bodies of functions: not entered. */
const FUNCTION_KINDS = new Set(['function', 'method', 'macro', 'const', 'type', 'property']);

export function outlineOf(language: LanguageId, tree: Tree): Definition[] {
  const definitions: Definition[] = [];
  if (language === 'yaml') return yamlKeys(tree);
  const rules = RULES[language];
  if (!rules) return definitions;
  // A function right inside a class, impl, trait or interface is a method (Python's, Rust's are
  // function nodes like any other).
  const visit = (node: Node, scope: readonly string[], start: number, depth: number, inType = false): void => {
    if (depth > 64) return;
    const rule = rules[node.type];
    const wrapped = WRAPPERS.has(node.type);
    if (rule) {
      const name = (rule.name ? rule.name(node) : node.childForFieldName('name')?.text) ?? '';
      if (name !== '') {
        const qualifier = language === 'go' && node.type === 'method_declaration' ? receiverType(node) : undefined;
        const path = [...scope, ...(qualifier ? [qualifier] : []), ...qualifiedParts(name)];
        definitions.push({
          kind: rule.kind === 'function' && (inType || qualifier) ? 'method' : rule.kind,
          name: path[path.length - 1]!,
          qualifiedName: path.join('.'),
          startLine: Math.min(start, node.startPosition.row) + 1,
          endLine: lastLine(node),
        });
        if (FUNCTION_KINDS.has(rule.kind) || !rule.container) return;
        const isType = TYPE_KINDS.has(rule.kind);
        for (const child of node.namedChildren) visit(child, path, Infinity, depth + 1, isType);
        return;
      }
    }
    if (language === 'javascript' || language === 'typescript' || language === 'tsx') {
      if (jsVariables(node, scope, start, definitions)) return;
    }
    if (isFunctionBody(node)) return;
    const nextStart = wrapped ? Math.min(start, node.startPosition.row) : Infinity;
    for (const child of node.namedChildren) visit(child, scope, nextStart, depth + 1, inType);
  };
  visit(tree.rootNode, [], Infinity, 0);
  return definitions;
}

/** `const add = (a, b) => …` and `const LIMIT = 10` in a container's body. */
function jsVariables(node: Node, scope: readonly string[], start: number, into: Definition[]): boolean {
  if (node.type !== 'lexical_declaration' && node.type !== 'variable_declaration') return false;
  const constant = node.firstChild?.type === 'const';
  for (const declarator of node.namedChildren) {
    if (declarator.type !== 'variable_declarator') continue;
    const name = declarator.childForFieldName('name');
    if (name?.type !== 'identifier') continue;
    const value = declarator.childForFieldName('value')?.type ?? '';
    const kind = /function|arrow_function/.test(value) ? 'function' : value === 'class' ? 'class' : constant ? 'const' : undefined;
    if (!kind) continue;
    into.push({
      kind,
      name: name.text,
      qualifiedName: [...scope, name.text].join('.'),
      startLine: Math.min(start, node.startPosition.row) + 1,
      endLine: lastLine(node),
    });
  }
  return true;
}

/** 1-based last line of a node, which some grammars end at the start of the next line (a macro's, a YAML value's newline). */
function lastLine(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/** Expressions: callbacks and closures in them are not definitions of the file. */
const NOT_ENTERED = new Set([
  'expression_statement', 'call_expression', 'arrow_function', 'function_expression', 'function', 'lambda',
  'assignment', 'return_statement', 'call', 'macro_invocation', 'let_declaration', 'local_declaration_statement',
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
    if (/^(?:identifier|field_identifier|type_identifier|qualified_identifier|destructor_name|operator_name)$/.test(at.type)) return at.text;
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
      keys.push({ kind: 'key', name: key.text, qualifiedName: key.text, startLine: pair.startPosition.row + 1, endLine: lastLine(pair) });
    }
  }
  return keys;
}
