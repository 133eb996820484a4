;; Lines of a piece of a file found and fingerprinted, two lines at a time: the work of
;; hashLineAt (src/model/hash.ts) for the lines of bytes read into this module's memory. A
;; line's hash is a chain in which each byte waits for the one before (a multiply, some 4 cycles
;; a byte), so one line at a time runs at that chain's pace: two lines' chains, interleaved, run
;; side by side. Each line's end is found first, 16 bytes at a time. See src/model/wasmHash.ts,
;; which holds this function assembled; test/model/wasmAssembled.test.ts checks that it does.

(module
  (import "env" "memory" (memory 1))

  ;; MurmurHash3's finaliser.
  (func $fmix32 (param $h i32) (result i32)
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))

  ;; Where the line starting at $p ends: its `\n`, or $end.
  (func $lineEnd (param $p i32) (param $end i32) (result i32)
    (local $lf v128) (local $found i32)
    (local.set $lf (i8x16.splat (i32.const 10)))
    (block $tail
      (loop $chunks
        (br_if $tail (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $found (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $lf))))
        (if (local.get $found) (then (return (i32.add (local.get $p) (i32.ctz (local.get $found))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $chunks)))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (br_if $done (i32.eq (i32.load8_u (local.get $p)) (i32.const 10)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $bytes)))
    (local.get $p))

  ;; The length of the content of the line from $start to $p (its end, see lineEnd): a `\r`
  ;; before its `\n` is not content (one before $end is).
  (func $contentLength (param $start i32) (param $p i32) (param $end i32) (result i32)
    (if (i32.lt_u (local.get $p) (local.get $end))
      (then (if (i32.gt_u (local.get $p) (local.get $start))
        (then (if (i32.eq (i32.load8_u (i32.sub (local.get $p) (i32.const 1))) (i32.const 13))
          (then (return (i32.sub (i32.sub (local.get $p) (local.get $start)) (i32.const 1)))))))))
    (i32.sub (local.get $p) (local.get $start)))

  ;; Fingerprints the lines from $start on (up to $max of them) of bytes that run to $end: h1
  ;; and h2 of the n-th written at $h1 and $h2 (32-bit words). The n-th line is the file's
  ;; ($first + n)-th: where each line whose number is a multiple of $block starts is
  ;; written at $marks, in turn. Returns how many lines; where the next one starts is written at
  ;; $next.
  (func (export "hash") (param $start i32) (param $end i32) (param $h1 i32) (param $h2 i32) (param $max i32)
      (param $next i32) (param $first i32) (param $block i32) (param $marks i32) (result i32)
    (local $count i32) (local $endA i32) (local $endB i32) (local $lenA i32) (local $lenB i32) (local $startB i32)
      (local $a1 i32) (local $a2 i32) (local $b1 i32) (local $b2 i32) (local $j i32) (local $both i32) (local $two i32)
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $count) (local.get $max)))
        (br_if $done (i32.ge_u (local.get $start) (local.get $end)))
        (if (i32.eqz (i32.rem_u (i32.add (local.get $first) (local.get $count)) (local.get $block)))
          (then
            (i32.store (local.get $marks) (local.get $start))
            (local.set $marks (i32.add (local.get $marks) (i32.const 4)))))
        (local.set $endA (call $lineEnd (local.get $start) (local.get $end)))
        (local.set $lenA (call $contentLength (local.get $start) (local.get $endA) (local.get $end)))
        ;; A second line, when there is one and room for it: else it is as long as nothing.
        (local.set $startB (i32.add (local.get $endA) (i32.const 1)))
        (local.set $two (i32.and
          (i32.lt_u (i32.add (local.get $count) (i32.const 1)) (local.get $max))
          (i32.lt_u (local.get $startB) (local.get $end))))
        (local.set $lenB (i32.const 0))
        (local.set $endB (local.get $endA))
        (if (local.get $two)
          (then
            (if (i32.eqz (i32.rem_u (i32.add (i32.add (local.get $first) (local.get $count)) (i32.const 1))
                  (local.get $block)))
              (then
                (i32.store (local.get $marks) (local.get $startB))
                (local.set $marks (i32.add (local.get $marks) (i32.const 4)))))
            (local.set $endB (call $lineEnd (local.get $startB) (local.get $end)))
            (local.set $lenB (call $contentLength (local.get $startB) (local.get $endB) (local.get $end)))))
        (local.set $a1 (i32.const 0x811c9dc5))
        (local.set $b1 (i32.const 0x9747b28c))
        (local.set $a2 (i32.const 0x811c9dc5))
        (local.set $b2 (i32.const 0x9747b28c))
        ;; Both lines' bytes side by side, then the rest of the longer one.
        (local.set $both (select (local.get $lenA) (local.get $lenB) (i32.lt_u (local.get $lenA) (local.get $lenB))))
        (local.set $j (i32.const 0))
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.ge_u (local.get $j) (local.get $both)))
            (local.set $a1 (i32.mul (i32.xor (local.get $a1) (i32.load8_u (i32.add (local.get $start) (local.get $j))))
              (i32.const 0x01000193)))
            (local.set $a2 (i32.mul (i32.xor (local.get $a2) (i32.load8_u (i32.add (local.get $startB) (local.get $j))))
              (i32.const 0x01000193)))
            (local.set $b1 (i32.add (local.get $b1) (local.get $a1)))
            (local.set $b2 (i32.add (local.get $b2) (local.get $a2)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $pairs)))
        (local.set $both (local.get $j))
        (block $restA
          (loop $bytesA
            (br_if $restA (i32.ge_u (local.get $j) (local.get $lenA)))
            (local.set $a1 (i32.mul (i32.xor (local.get $a1) (i32.load8_u (i32.add (local.get $start) (local.get $j))))
              (i32.const 0x01000193)))
            (local.set $b1 (i32.add (local.get $b1) (local.get $a1)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $bytesA)))
        (local.set $j (local.get $both))
        (block $restB
          (loop $bytesB
            (br_if $restB (i32.ge_u (local.get $j) (local.get $lenB)))
            (local.set $a2 (i32.mul (i32.xor (local.get $a2) (i32.load8_u (i32.add (local.get $startB) (local.get $j))))
              (i32.const 0x01000193)))
            (local.set $b2 (i32.add (local.get $b2) (local.get $a2)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $bytesB)))
        (i32.store (i32.add (local.get $h1) (i32.shl (local.get $count) (i32.const 2)))
          (call $fmix32 (i32.xor (local.get $a1) (local.get $lenA))))
        (i32.store (i32.add (local.get $h2) (i32.shl (local.get $count) (i32.const 2)))
          (call $fmix32 (i32.xor (local.get $b1) (i32.mul (local.get $lenA) (i32.const 0x5bd1e995)))))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (local.set $start (i32.add (local.get $endA) (i32.const 1)))
        (if (local.get $two)
          (then
            (i32.store (i32.add (local.get $h1) (i32.shl (local.get $count) (i32.const 2)))
              (call $fmix32 (i32.xor (local.get $a2) (local.get $lenB))))
            (i32.store (i32.add (local.get $h2) (i32.shl (local.get $count) (i32.const 2)))
              (call $fmix32 (i32.xor (local.get $b2) (i32.mul (local.get $lenB) (i32.const 0x5bd1e995)))))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $start (i32.add (local.get $endB) (i32.const 1)))))
        (br $lines)))
    (i32.store (local.get $next) (local.get $start))
    (local.get $count))

  ;; hashRange's chain (src/model/hash.ts) carried on over the bytes from $p to $end: FNV-1a's
  ;; state and the sum of its states, 32-bit words at $state and $state + 4, read and written
  ;; back. A long line (a minified file's one line) is hashed a piece at a time through it: in
  ;; JavaScript its one call runs in code V8 has not optimised yet (see wasmHash.ts's hashLong).
  (func (export "range") (param $p i32) (param $end i32) (param $state i32)
    (local $a i32) (local $b i32)
    (local.set $a (i32.load (local.get $state)))
    (local.set $b (i32.load offset=4 (local.get $state)))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $a (i32.mul (i32.xor (local.get $a) (i32.load8_u (local.get $p))) (i32.const 0x01000193)))
        (local.set $b (i32.add (local.get $b) (local.get $a)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $bytes)))
    (i32.store (local.get $state) (local.get $a))
    (i32.store offset=4 (local.get $state) (local.get $b)))
)
