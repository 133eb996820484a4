;; A pack segment's table (src/store/pack.ts) as rt writes it, read in WebAssembly: its rows checked
;; and taken into columns, and its keys into a hash table to find them by, with no object made for
;; a row. Only the table's usual form is taken: every key plain ASCII with no escape, every number
;; an integer of at most 15 digits, every check null or 16 hex digits; anything else is left to
;; the JavaScript reading, the reference (see src/model/wasmTable.ts, which holds this module
;; assembled; test/model/wasmAssembled.test.ts checks that it does).
;;
;; A row is written at $rows + 48 * n: its offset, length, sequence number and time (f64), then
;; where its key starts and ends and where its check starts (0 for null), u32.

(module
  (import "env" "memory" (memory 1))

  ;; Where scan has got to, the rows it took, the bytes of their entries and their tombstones.
  (global $p (mut i32) (i32.const 0))
  (global $count (mut i32) (i32.const 0))
  (global $bytes (mut f64) (f64.const 0))
  (global $tombstones (mut i32) (i32.const 0))
  ;; The value of the number num read last.
  (global $value (mut f64) (f64.const 0))

  (func (export "count") (result i32) (global.get $count))
  (func (export "bytes") (result f64) (global.get $bytes))
  (func (export "tombstones") (result i32) (global.get $tombstones))

  ;; An integer at $at (a sign, then 1 to 15 digits, no leading zero: JSON has none) into $value:
  ;; where it ends, or 0.
  (func $num (param $at i32) (result i32)
    (local $start i32) (local $c i32) (local $v f64) (local $negative i32)
    (if (i32.eq (i32.load8_u (local.get $at)) (i32.const 45))
      (then
        (local.set $negative (i32.const 1))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))))
    (local.set $start (local.get $at))
    (block $end
      (loop $digits
        (local.set $c (i32.sub (i32.load8_u (local.get $at)) (i32.const 48)))
        (br_if $end (i32.gt_u (local.get $c) (i32.const 9)))
        (local.set $v (f64.add (f64.mul (local.get $v) (f64.const 10)) (f64.convert_i32_u (local.get $c))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $digits)))
    (if (i32.or (i32.eq (local.get $at) (local.get $start))
          (i32.or (i32.gt_u (i32.sub (local.get $at) (local.get $start)) (i32.const 15))
            (i32.and (i32.gt_u (i32.sub (local.get $at) (local.get $start)) (i32.const 1))
              (i32.eq (i32.load8_u (local.get $start)) (i32.const 48)))))
      (then (return (i32.const 0))))
    (global.set $value (select (f64.neg (local.get $v)) (local.get $v) (local.get $negative)))
    (local.get $at))

  ;; Whether the byte at $at is $c.
  (func $is (param $at i32) (param $c i32) (result i32)
    (i32.eq (i32.load8_u (local.get $at)) (local.get $c)))

  ;; Starts a scan of the rows of the table body $start..$end (the rows and the commas between them).
  (func (export "begin") (param $start i32)
    (global.set $p (local.get $start))
    (global.set $count (i32.const 0))
    (global.set $bytes (f64.const 0))
    (global.set $tombstones (i32.const 0)))

  ;; Takes rows until the scan passes $stop (a piece: see wasmTable.ts) or reaches $end. A row's
  ;; entry must lie in the segment before its table ($tocAt) and after its header ($first), its
  ;; sequence number be at most the segment's ($seq), its key be shorter than $keyMost bytes.
  ;; Returns 1 when the body is done, 0 when there is more, -1 when it is not in the usual form or
  ;; a row does not check.
  (func (export "scan") (param $end i32) (param $stop i32) (param $rows i32) (param $tocAt f64) (param $seq f64)
      (param $first f64) (param $keyMost i32) (result i32)
    (local $at i32) (local $key i32) (local $keyEnd i32) (local $c i32) (local $row i32) (local $check i32)
    (local $offset f64) (local $length f64) (local $entrySeq f64) (local $touched f64) (local $i i32)
    (local.set $at (global.get $p))
    (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const 1))))
    (loop $rowsLoop
      ;; ["KEY",
      (if (i32.eqz (call $is (local.get $at) (i32.const 91))) (then (return (i32.const -1))))
      (if (i32.eqz (call $is (i32.add (local.get $at) (i32.const 1)) (i32.const 34))) (then (return (i32.const -1))))
      (local.set $key (i32.add (local.get $at) (i32.const 2)))
      (local.set $at (local.get $key))
      (block $keyDone
        (loop $keyBytes
          (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
          (local.set $c (i32.load8_u (local.get $at)))
          (br_if $keyDone (i32.eq (local.get $c) (i32.const 34)))
          (if (i32.or (i32.or (i32.lt_u (local.get $c) (i32.const 32)) (i32.ge_u (local.get $c) (i32.const 127)))
                (i32.eq (local.get $c) (i32.const 92)))
            (then (return (i32.const -1))))
          (local.set $at (i32.add (local.get $at) (i32.const 1)))
          (br $keyBytes)))
      (local.set $keyEnd (local.get $at))
      (if (i32.ge_u (i32.sub (local.get $keyEnd) (local.get $key)) (local.get $keyMost)) (then (return (i32.const -1))))
      (if (i32.eqz (call $is (i32.add (local.get $at) (i32.const 1)) (i32.const 44))) (then (return (i32.const -1))))
      ;; OFFSET,LENGTH,SEQ,TOUCHED,
      (local.set $at (call $num (i32.add (local.get $at) (i32.const 2))))
      (if (i32.eqz (local.get $at)) (then (return (i32.const -1))))
      (local.set $offset (global.get $value))
      (if (i32.eqz (call $is (local.get $at) (i32.const 44))) (then (return (i32.const -1))))
      (local.set $at (call $num (i32.add (local.get $at) (i32.const 1))))
      (if (i32.eqz (local.get $at)) (then (return (i32.const -1))))
      (local.set $length (global.get $value))
      (if (i32.eqz (call $is (local.get $at) (i32.const 44))) (then (return (i32.const -1))))
      (local.set $at (call $num (i32.add (local.get $at) (i32.const 1))))
      (if (i32.eqz (local.get $at)) (then (return (i32.const -1))))
      (local.set $entrySeq (global.get $value))
      (if (i32.eqz (call $is (local.get $at) (i32.const 44))) (then (return (i32.const -1))))
      (local.set $at (call $num (i32.add (local.get $at) (i32.const 1))))
      (if (i32.eqz (local.get $at)) (then (return (i32.const -1))))
      (local.set $touched (global.get $value))
      (if (i32.eqz (call $is (local.get $at) (i32.const 44))) (then (return (i32.const -1))))
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      ;; null or "16 hex digits", then ]
      (if (i32.eq (i32.load (local.get $at)) (i32.const 0x6c6c756e))
        (then
          (local.set $check (i32.const 0))
          (local.set $at (i32.add (local.get $at) (i32.const 4))))
        (else
          (if (i32.eqz (call $is (local.get $at) (i32.const 34))) (then (return (i32.const -1))))
          (local.set $check (i32.add (local.get $at) (i32.const 1)))
          (local.set $i (i32.const 0))
          (loop $hex
            (local.set $c (i32.load8_u (i32.add (local.get $check) (local.get $i))))
            (if (i32.eqz (i32.or (i32.le_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9))
                  (i32.le_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 5))))
              (then (return (i32.const -1))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $hex (i32.lt_u (local.get $i) (i32.const 16))))
          (if (i32.eqz (call $is (i32.add (local.get $check) (i32.const 16)) (i32.const 34))) (then (return (i32.const -1))))
          (local.set $at (i32.add (local.get $check) (i32.const 17)))))
      (if (i32.eqz (call $is (local.get $at) (i32.const 93))) (then (return (i32.const -1))))
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      (if (i32.gt_u (local.get $at) (local.get $end)) (then (return (i32.const -1))))
      ;; What the JavaScript reading checks of a row.
      (if (i32.or
            (i32.or (f64.gt (local.get $entrySeq) (local.get $seq)) (f64.lt (local.get $offset) (local.get $first)))
            (i32.or (f64.lt (local.get $length) (f64.const -1))
              (f64.gt (f64.add (local.get $offset) (f64.max (f64.const 0) (local.get $length))) (local.get $tocAt))))
        (then (return (i32.const -1))))
      (local.set $row (i32.add (local.get $rows) (i32.mul (global.get $count) (i32.const 48))))
      (f64.store (local.get $row) (local.get $offset))
      (f64.store offset=8 (local.get $row) (local.get $length))
      (f64.store offset=16 (local.get $row) (local.get $entrySeq))
      (f64.store offset=24 (local.get $row) (local.get $touched))
      (i32.store offset=32 (local.get $row) (local.get $key))
      (i32.store offset=36 (local.get $row) (local.get $keyEnd))
      (i32.store offset=40 (local.get $row) (local.get $check))
      (global.set $count (i32.add (global.get $count) (i32.const 1)))
      (if (f64.lt (local.get $length) (f64.const 0))
        (then (global.set $tombstones (i32.add (global.get $tombstones) (i32.const 1))))
        (else (global.set $bytes (f64.add (global.get $bytes) (local.get $length)))))
      (global.set $p (local.get $at))
      (if (i32.eq (local.get $at) (local.get $end)) (then (return (i32.const 1))))
      (if (i32.eqz (call $is (local.get $at) (i32.const 44))) (then (return (i32.const -1))))
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      (global.set $p (local.get $at))
      (br_if $rowsLoop (i32.lt_u (local.get $at) (local.get $stop))))
    (i32.const 0))

  ;; The hash of bytes $at..$end (FNV-1a, its high bits folded in).
  (func $hash (param $at i32) (param $end i32) (result i32)
    (local $h i32)
    (local.set $h (i32.const 0x811c9dc5))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $h (i32.mul (i32.xor (local.get $h) (i32.load8_u (local.get $at))) (i32.const 0x01000193)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $bytes)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 15))))

  ;; Whether bytes $a..$aEnd are bytes $b..$bEnd.
  (func $same (param $a i32) (param $aEnd i32) (param $b i32) (param $bEnd i32) (result i32)
    (if (i32.ne (i32.sub (local.get $aEnd) (local.get $a)) (i32.sub (local.get $bEnd) (local.get $b)))
      (then (return (i32.const 0))))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $a) (local.get $aEnd)))
        (if (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))) (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $bytes)))
    (i32.const 1))

  ;; The row of the key $key..$keyEnd in the hash table of $mask + 1 slots (u32 at $slots: a row + 1,
  ;; 0 for none), or -1; with $add, a key not there is added as row $add - 1 (and -2 returned when it
  ;; is there already).
  (func $find (param $key i32) (param $keyEnd i32) (param $rows i32) (param $slots i32) (param $mask i32)
      (param $add i32) (result i32)
    (local $i i32) (local $slot i32) (local $got i32) (local $row i32)
    (local.set $i (i32.and (call $hash (local.get $key) (local.get $keyEnd)) (local.get $mask)))
    (loop $probe
      (local.set $slot (i32.add (local.get $slots) (i32.shl (local.get $i) (i32.const 2))))
      (local.set $got (i32.load (local.get $slot)))
      (if (i32.eqz (local.get $got))
        (then
          (if (local.get $add) (then (i32.store (local.get $slot) (local.get $add))))
          (return (i32.const -1))))
      (local.set $row (i32.add (local.get $rows) (i32.mul (i32.sub (local.get $got) (i32.const 1)) (i32.const 48))))
      (if (call $same (local.get $key) (local.get $keyEnd)
            (i32.load offset=32 (local.get $row)) (i32.load offset=36 (local.get $row)))
        (then (return (select (i32.const -2) (i32.sub (local.get $got) (i32.const 1)) (local.get $add)))))
      (local.set $i (i32.and (i32.add (local.get $i) (i32.const 1)) (local.get $mask)))
      (br $probe))
    (i32.const -1))

  ;; Adds rows $from..$to to the hash table: 1, or 0 when a key is named twice.
  (func (export "index") (param $from i32) (param $to i32) (param $rows i32) (param $slots i32) (param $mask i32)
      (result i32)
    (local $row i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $from) (local.get $to)))
        (local.set $row (i32.add (local.get $rows) (i32.mul (local.get $from) (i32.const 48))))
        (if (i32.eq (call $find (i32.load offset=32 (local.get $row)) (i32.load offset=36 (local.get $row))
              (local.get $rows) (local.get $slots) (local.get $mask) (i32.add (local.get $from) (i32.const 1)))
              (i32.const -2))
          (then (return (i32.const 0))))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $each)))
    (i32.const 1))

  ;; The row of the key $key..$keyEnd, or -1.
  (func (export "find") (param $key i32) (param $keyEnd i32) (param $rows i32) (param $slots i32) (param $mask i32)
      (result i32)
    (call $find (local.get $key) (local.get $keyEnd) (local.get $rows) (local.get $slots) (local.get $mask) (i32.const 0)))
)
