;; Lines of a piece of a file found and fingerprinted in one pass: the work of hashLineAt
;; (src/model/hash.ts) for the lines of bytes read into this module's memory. See
;; src/model/wasmHash.ts, which holds this function assembled; test/model/wasmAssembled.test.ts
;; checks that it does.

(module
  (import "env" "memory" (memory 1))

  ;; MurmurHash3's finaliser.
  (func $fmix32 (param $h i32) (result i32)
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))

  ;; Fingerprints the lines from $start on (up to $max of them) of bytes that run to $end, as
  ;; hashLineAt does each: h1 and h2 of the n-th written at $h1 and $h2 (32-bit words). A line
  ;; ends at its `\n` (a `\r` before it is not content) or at $end (a `\r` there kept). The
  ;; n-th line is the file's ($first + n)-th: where each line whose number is a multiple of
  ;; $block starts is written at $marks, in turn. Returns how many lines; where the next one
  ;; starts is written at $next.
  (func (export "hash") (param $start i32) (param $end i32) (param $h1 i32) (param $h2 i32) (param $max i32)
      (param $next i32) (param $first i32) (param $block i32) (param $marks i32) (result i32)
    (local $count i32) (local $p i32) (local $a i32) (local $b i32) (local $beforeA i32) (local $beforeB i32)
      (local $byte i32) (local $length i32)
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $count) (local.get $max)))
        (br_if $done (i32.ge_u (local.get $start) (local.get $end)))
        (if (i32.eqz (i32.rem_u (i32.add (local.get $first) (local.get $count)) (local.get $block)))
          (then
            (i32.store (local.get $marks) (local.get $start))
            (local.set $marks (i32.add (local.get $marks) (i32.const 4)))))
        (local.set $a (i32.const 0x811c9dc5))
        (local.set $b (i32.const 0x9747b28c))
        (local.set $beforeA (local.get $a))
        (local.set $beforeB (local.get $b))
        (local.set $p (local.get $start))
        (block $eol
          (loop $bytes
            (br_if $eol (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $byte (i32.load8_u (local.get $p)))
            (br_if $eol (i32.eq (local.get $byte) (i32.const 10)))
            (local.set $beforeA (local.get $a))
            (local.set $beforeB (local.get $b))
            (local.set $a (i32.mul (i32.xor (local.get $a) (local.get $byte)) (i32.const 0x01000193)))
            (local.set $b (i32.add (local.get $b) (local.get $a)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $bytes)))
        (local.set $length (i32.sub (local.get $p) (local.get $start)))
        (if (i32.lt_u (local.get $p) (local.get $end))
          (then (if (i32.gt_u (local.get $length) (i32.const 0))
            (then (if (i32.eq (i32.load8_u (i32.sub (local.get $p) (i32.const 1))) (i32.const 13))
              (then
                (local.set $a (local.get $beforeA))
                (local.set $b (local.get $beforeB))
                (local.set $length (i32.sub (local.get $length) (i32.const 1)))))))))
        (i32.store (i32.add (local.get $h1) (i32.shl (local.get $count) (i32.const 2)))
          (call $fmix32 (i32.xor (local.get $a) (local.get $length))))
        (i32.store (i32.add (local.get $h2) (i32.shl (local.get $count) (i32.const 2)))
          (call $fmix32 (i32.xor (local.get $b) (i32.mul (local.get $length) (i32.const 0x5bd1e995)))))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (local.set $start (i32.add (local.get $p) (i32.const 1)))
        (br $lines)))
    (i32.store (local.get $next) (local.get $start))
    (local.get $count))
)
