;; Lines of a file's bytes, found 16 bytes at a time (WebAssembly SIMD): the work of splitLines
;; (src/model/lines.ts) for a file read into this module's memory. See src/model/wasmLines.ts,
;; which holds these functions assembled; test/model/wasmAssembled.test.ts checks that it does.

(module
  (import "env" "memory" (memory 1))

  ;; The lines of bytes from..len-1: each `\n` ends one, and bytes after the last `\n` make one more.
  (func (export "count") (param $from i32) (param $len i32) (result i32)
    (local $i i32) (local $n i32) (local $lf v128)
    (local.set $i (local.get $from))
    (local.set $lf (i8x16.splat (i32.const 10)))
    (block $done
      (loop $chunks
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $len)))
        (local.set $n (i32.add (local.get $n)
          (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load (local.get $i)) (local.get $lf))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $chunks)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $i) (local.get $len)))
        (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 10))
          (then (local.set $n (i32.add (local.get $n) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $tail)))
    (if (i32.gt_u (local.get $len) (local.get $from))
      (then (if (i32.ne (i32.load8_u (i32.sub (local.get $len) (i32.const 1))) (i32.const 10))
        (then (local.set $n (i32.add (local.get $n) (i32.const 1)))))))
    (local.get $n))

  ;; Writes the start of each line of bytes from..len-1 at $starts (32-bit words) and the end of
  ;; its content (before its `\r\n` or `\n`) at $ends; returns how many lines, or -1 when there
  ;; are more than $cap.
  (func (export "split") (param $from i32) (param $len i32) (param $starts i32) (param $ends i32) (param $cap i32) (result i32)
    (local $i i32) (local $count i32) (local $mask i32) (local $nl i32) (local $start i32) (local $end i32) (local $lf v128)
    (local.set $start (local.get $from))
    (local.set $i (local.get $from))
    (local.set $lf (i8x16.splat (i32.const 10)))
    (block $done
      (loop $chunks
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $len)))
        (local.set $mask (i8x16.bitmask (i8x16.eq (v128.load (local.get $i)) (local.get $lf))))
        (block $next
          (loop $bits
            (br_if $next (i32.eqz (local.get $mask)))
            (local.set $nl (i32.add (local.get $i) (i32.ctz (local.get $mask))))
            (if (i32.ge_u (local.get $count) (local.get $cap)) (then (return (i32.const -1))))
            (i32.store (i32.add (local.get $starts) (i32.shl (local.get $count) (i32.const 2))) (local.get $start))
            (local.set $end (local.get $nl))
            (if (i32.gt_u (local.get $nl) (local.get $start))
              (then (if (i32.eq (i32.load8_u (i32.sub (local.get $nl) (i32.const 1))) (i32.const 13))
                (then (local.set $end (i32.sub (local.get $nl) (i32.const 1)))))))
            (i32.store (i32.add (local.get $ends) (i32.shl (local.get $count) (i32.const 2))) (local.get $end))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $start (i32.add (local.get $nl) (i32.const 1)))
            (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
            (br $bits)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $chunks)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $i) (local.get $len)))
        (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 10))
          (then
            (if (i32.ge_u (local.get $count) (local.get $cap)) (then (return (i32.const -1))))
            (i32.store (i32.add (local.get $starts) (i32.shl (local.get $count) (i32.const 2))) (local.get $start))
            (local.set $end (local.get $i))
            (if (i32.gt_u (local.get $i) (local.get $start))
              (then (if (i32.eq (i32.load8_u (i32.sub (local.get $i) (i32.const 1))) (i32.const 13))
                (then (local.set $end (i32.sub (local.get $i) (i32.const 1)))))))
            (i32.store (i32.add (local.get $ends) (i32.shl (local.get $count) (i32.const 2))) (local.get $end))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $start (i32.add (local.get $i) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $tail)))
    ;; A last line without `\n`.
    (if (i32.lt_u (local.get $start) (local.get $len))
      (then
        (if (i32.ge_u (local.get $count) (local.get $cap)) (then (return (i32.const -1))))
        (i32.store (i32.add (local.get $starts) (i32.shl (local.get $count) (i32.const 2))) (local.get $start))
        (i32.store (i32.add (local.get $ends) (i32.shl (local.get $count) (i32.const 2))) (local.get $len))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))))
    (local.get $count))
)
