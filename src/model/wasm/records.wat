;; A saved index's records (src/store/savedIndex.ts), decoded and checked in WebAssembly: the work
;; of decodeWords, splitWords and digestWords (src/model/indexCodec.ts, src/model/digest.ts) for
;; the whole of a big index, read into this module's memory; and, for a big index saved whole,
;; the work of recordWords and encodeWords. See src/model/wasmRecords.ts, which
;; holds these functions assembled (test/model/wasmAssembled.test.ts checks that it does);
;; test/model/wasmRecords.test.ts, that they give what those functions give.

(module
  (import "env" "memory" (memory 1))

  ;; Decodes $n records of 16 base64 characters (12 bytes: fingerprint h1, h2 and LID code,
  ;; little-endian) at $text into the arrays of 32-bit words at $h1, $h2 and $lids. Returns 1,
  ;; or 0 when a character is not of base64's alphabet (`=` included: records have no padding).
  (func (export "decode") (param $text i32) (param $n i32) (param $h1 i32) (param $h2 i32) (param $lids i32) (result i32)
    (local $i i32) (local $at i32) (local $c v128) (local $v v128) (local $bad v128)
    (local $upper v128) (local $lower v128) (local $digit v128) (local $plus v128) (local $slash v128)
    (local $A v128) (local $Z v128) (local $a v128) (local $z v128) (local $d0 v128) (local $d9 v128)
    (local $pl v128) (local $sl v128) (local $oA v128) (local $oa v128) (local $od v128) (local $op v128) (local $os v128)
    (local $lo8 v128) (local $lo16 v128)
    (local.set $A (i8x16.splat (i32.const 65)))
    (local.set $Z (i8x16.splat (i32.const 90)))
    (local.set $a (i8x16.splat (i32.const 97)))
    (local.set $z (i8x16.splat (i32.const 122)))
    (local.set $d0 (i8x16.splat (i32.const 48)))
    (local.set $d9 (i8x16.splat (i32.const 57)))
    (local.set $pl (i8x16.splat (i32.const 43)))
    (local.set $sl (i8x16.splat (i32.const 47)))
    ;; What each range adds to a character to give its value: A-Z 0-25, a-z 26-51, 0-9 52-61, + 62, / 63.
    (local.set $oA (i8x16.splat (i32.const -65)))
    (local.set $oa (i8x16.splat (i32.const -71)))
    (local.set $od (i8x16.splat (i32.const 4)))
    (local.set $op (i8x16.splat (i32.const 19)))
    (local.set $os (i8x16.splat (i32.const 16)))
    (local.set $lo8 (i16x8.splat (i32.const 0x00ff)))
    (local.set $lo16 (i32x4.splat (i32.const 0xffff)))
    (block $done
      (loop $records
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $c (v128.load (i32.add (local.get $text) (i32.shl (local.get $i) (i32.const 4)))))
        (local.set $upper (v128.and (i8x16.ge_u (local.get $c) (local.get $A)) (i8x16.le_u (local.get $c) (local.get $Z))))
        (local.set $lower (v128.and (i8x16.ge_u (local.get $c) (local.get $a)) (i8x16.le_u (local.get $c) (local.get $z))))
        (local.set $digit (v128.and (i8x16.ge_u (local.get $c) (local.get $d0)) (i8x16.le_u (local.get $c) (local.get $d9))))
        (local.set $plus (i8x16.eq (local.get $c) (local.get $pl)))
        (local.set $slash (i8x16.eq (local.get $c) (local.get $sl)))
        (local.set $bad (v128.or (local.get $bad)
          (v128.not (v128.or (v128.or (local.get $upper) (local.get $lower)) (v128.or (v128.or (local.get $digit) (local.get $plus)) (local.get $slash))))))
        ;; Each character's 6-bit value.
        (local.set $v (i8x16.add (local.get $c)
          (v128.or
            (v128.or (v128.and (local.get $upper) (local.get $oA)) (v128.and (local.get $lower) (local.get $oa)))
            (v128.or (v128.and (local.get $digit) (local.get $od))
              (v128.or (v128.and (local.get $plus) (local.get $op)) (v128.and (local.get $slash) (local.get $os)))))))
        ;; Pairs of values into 12 bits (the first high), then pairs of those into 24 (3 bytes).
        (local.set $v (v128.or (i16x8.shl (v128.and (local.get $v) (local.get $lo8)) (i32.const 6)) (i16x8.shr_u (local.get $v) (i32.const 8))))
        (local.set $v (v128.or (i32x4.shl (v128.and (local.get $v) (local.get $lo16)) (i32.const 12)) (i32x4.shr_u (local.get $v) (i32.const 16))))
        ;; Each 3 bytes in the order they were encoded: the record's 12 bytes, then 4 unused.
        (local.set $v (i8x16.shuffle 2 1 0 6 5 4 10 9 8 14 13 12 3 7 11 15 (local.get $v) (local.get $v)))
        (local.set $at (i32.shl (local.get $i) (i32.const 2)))
        (i32.store (i32.add (local.get $h1) (local.get $at)) (i32x4.extract_lane 0 (local.get $v)))
        (i32.store (i32.add (local.get $h2) (local.get $at)) (i32x4.extract_lane 1 (local.get $v)))
        (i32.store (i32.add (local.get $lids) (local.get $at)) (i32x4.extract_lane 2 (local.get $v)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $records)))
    (i32.eqz (v128.any_true (local.get $bad))))

  ;; Encodes the records of lines 0..$n-1 (h1, h2 and LID code of each from the arrays of 32-bit
  ;; words at $h1, $h2 and $lids) as encodeWords does, 16 base64 characters a line at $text: the
  ;; record's 12 bytes (little-endian words) in 4 groups of 3, each group 4 characters. Four
  ;; lines at a time, each line's record gathered from the three arrays' words by two shuffles,
  ;; which also put each group's 3 bytes in a 32-bit lane as a number, its first byte highest.
  (func (export "encode") (param $h1 i32) (param $h2 i32) (param $lids i32) (param $n i32) (param $text i32)
    (local $i i32) (local $at i32) (local $out i32) (local $v v128) (local $x1 v128) (local $x2 v128) (local $x3 v128)
    (local $lo12 v128) (local $lo6 v128) (local $c26 v128) (local $c51 v128) (local $c13 v128) (local $lut v128)
    (local.set $lo12 (i32x4.splat (i32.const 0xfff)))
    (local.set $lo6 (i16x8.splat (i32.const 0x3f)))
    (local.set $c26 (i8x16.splat (i32.const 26)))
    (local.set $c51 (i8x16.splat (i32.const 51)))
    (local.set $c13 (i8x16.splat (i32.const 13)))
    ;; What a value adds to give its character, by its range: 26-51 a-z (0), 52-61 0-9 (1 to 10),
    ;; 62 + (11), 63 / (12), 0-25 A-Z (13): the range's number is the value less 51 (none below
    ;; 52), 13 for values below 26.
    (local.set $lut (v128.const i8x16 71 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -19 -16 65 0 0))
    (block $foursDone
      (loop $fours
        (br_if $foursDone (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)))
        (local.set $at (i32.shl (local.get $i) (i32.const 2)))
        (local.set $out (i32.add (local.get $text) (i32.shl (local.get $i) (i32.const 4))))
        (local.set $x1 (v128.load (i32.add (local.get $h1) (local.get $at))))
        (local.set $x2 (v128.load (i32.add (local.get $h2) (local.get $at))))
        (local.set $x3 (v128.load (i32.add (local.get $lids) (local.get $at))))
        (local.set $v (i8x16.shuffle 2 1 0 0 5 4 3 3 16 7 6 6 19 18 17 17 (i8x16.shuffle 0 1 2 3 16 17 18 19 0 0 0 0 0 0 0 0 (local.get $x1) (local.get $x2)) (local.get $x3)))
        (local.set $v (v128.or
          (v128.and (i32x4.shr_u (local.get $v) (i32.const 12)) (local.get $lo12))
          (i32x4.shl (v128.and (local.get $v) (local.get $lo12)) (i32.const 16))))
        (local.set $v (v128.or
          (v128.and (i16x8.shr_u (local.get $v) (i32.const 6)) (local.get $lo6))
          (i16x8.shl (v128.and (local.get $v) (local.get $lo6)) (i32.const 8))))
        (local.set $v (i8x16.add (local.get $v) (i8x16.swizzle (local.get $lut)
          (v128.or (i8x16.sub_sat_u (local.get $v) (local.get $c51))
            (v128.and (i8x16.lt_u (local.get $v) (local.get $c26)) (local.get $c13))))))
        (v128.store offset=0 (local.get $out) (local.get $v))
        (local.set $v (i8x16.shuffle 2 1 0 0 5 4 3 3 20 7 6 6 23 22 21 21 (i8x16.shuffle 4 5 6 7 20 21 22 23 0 0 0 0 0 0 0 0 (local.get $x1) (local.get $x2)) (local.get $x3)))
        (local.set $v (v128.or
          (v128.and (i32x4.shr_u (local.get $v) (i32.const 12)) (local.get $lo12))
          (i32x4.shl (v128.and (local.get $v) (local.get $lo12)) (i32.const 16))))
        (local.set $v (v128.or
          (v128.and (i16x8.shr_u (local.get $v) (i32.const 6)) (local.get $lo6))
          (i16x8.shl (v128.and (local.get $v) (local.get $lo6)) (i32.const 8))))
        (local.set $v (i8x16.add (local.get $v) (i8x16.swizzle (local.get $lut)
          (v128.or (i8x16.sub_sat_u (local.get $v) (local.get $c51))
            (v128.and (i8x16.lt_u (local.get $v) (local.get $c26)) (local.get $c13))))))
        (v128.store offset=16 (local.get $out) (local.get $v))
        (local.set $v (i8x16.shuffle 2 1 0 0 5 4 3 3 24 7 6 6 27 26 25 25 (i8x16.shuffle 8 9 10 11 24 25 26 27 0 0 0 0 0 0 0 0 (local.get $x1) (local.get $x2)) (local.get $x3)))
        (local.set $v (v128.or
          (v128.and (i32x4.shr_u (local.get $v) (i32.const 12)) (local.get $lo12))
          (i32x4.shl (v128.and (local.get $v) (local.get $lo12)) (i32.const 16))))
        (local.set $v (v128.or
          (v128.and (i16x8.shr_u (local.get $v) (i32.const 6)) (local.get $lo6))
          (i16x8.shl (v128.and (local.get $v) (local.get $lo6)) (i32.const 8))))
        (local.set $v (i8x16.add (local.get $v) (i8x16.swizzle (local.get $lut)
          (v128.or (i8x16.sub_sat_u (local.get $v) (local.get $c51))
            (v128.and (i8x16.lt_u (local.get $v) (local.get $c26)) (local.get $c13))))))
        (v128.store offset=32 (local.get $out) (local.get $v))
        (local.set $v (i8x16.shuffle 2 1 0 0 5 4 3 3 28 7 6 6 31 30 29 29 (i8x16.shuffle 12 13 14 15 28 29 30 31 0 0 0 0 0 0 0 0 (local.get $x1) (local.get $x2)) (local.get $x3)))
        (local.set $v (v128.or
          (v128.and (i32x4.shr_u (local.get $v) (i32.const 12)) (local.get $lo12))
          (i32x4.shl (v128.and (local.get $v) (local.get $lo12)) (i32.const 16))))
        (local.set $v (v128.or
          (v128.and (i16x8.shr_u (local.get $v) (i32.const 6)) (local.get $lo6))
          (i16x8.shl (v128.and (local.get $v) (local.get $lo6)) (i32.const 8))))
        (local.set $v (i8x16.add (local.get $v) (i8x16.swizzle (local.get $lut)
          (v128.or (i8x16.sub_sat_u (local.get $v) (local.get $c51))
            (v128.and (i8x16.lt_u (local.get $v) (local.get $c26)) (local.get $c13))))))
        (v128.store offset=48 (local.get $out) (local.get $v))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $fours)))
    ;; The last few lines one at a time.
    (block $done
      (loop $records
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.shl (local.get $i) (i32.const 2)))
        (local.set $v (i8x16.shuffle 2 1 0 0 5 4 3 3 8 7 6 6 11 10 9 9 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (i32.load (i32.add (local.get $h1) (local.get $at)))) (i32.load (i32.add (local.get $h2) (local.get $at)))) (i32.load (i32.add (local.get $lids) (local.get $at)))) (local.get $x1)))
        (local.set $v (v128.or
          (v128.and (i32x4.shr_u (local.get $v) (i32.const 12)) (local.get $lo12))
          (i32x4.shl (v128.and (local.get $v) (local.get $lo12)) (i32.const 16))))
        (local.set $v (v128.or
          (v128.and (i16x8.shr_u (local.get $v) (i32.const 6)) (local.get $lo6))
          (i16x8.shl (v128.and (local.get $v) (local.get $lo6)) (i32.const 8))))
        (local.set $v (i8x16.add (local.get $v) (i8x16.swizzle (local.get $lut)
          (v128.or (i8x16.sub_sat_u (local.get $v) (local.get $c51))
            (v128.and (i8x16.lt_u (local.get $v) (local.get $c26)) (local.get $c13))))))
        (v128.store (i32.add (local.get $text) (i32.shl (local.get $i) (i32.const 4))) (local.get $v))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $records))))

  ;; digestWords' two lanes: a word of lane a (the even words), and of lane b (the odd ones). The
  ;; loop below has them written out, for the baseline compiler that runs this calls no function.
  (func $mixA (param $a i32) (param $w i32) (result i32)
    (i32.add (i32.mul (i32.rotl (i32.xor (local.get $a)
      (i32.mul (i32.rotl (i32.mul (local.get $w) (i32.const 0xcc9e2d51)) (i32.const 15)) (i32.const 0x1b873593)))
      (i32.const 13)) (i32.const 5)) (i32.const 0xe6546b64)))
  (func $mixB (param $b i32) (param $w i32) (result i32)
    (i32.add (i32.mul (i32.rotl (i32.xor (local.get $b)
      (i32.mul (i32.rotl (i32.mul (local.get $w) (i32.const 0x85ebca6b)) (i32.const 16)) (i32.const 0xc2b2ae35)))
      (i32.const 17)) (i32.const 5)) (i32.const 0x561ccd1b)))
  (func $fmix (param $h i32) (result i32)
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))

  ;; digestWords (seed 0) of each block of $block lines' records (h1, h2, LID of each line in
  ;; turn) of lines 0..$n-1, the last block shorter: its two finished lanes at $out, 8 bytes a block.
  (func (export "digests") (param $h1 i32) (param $h2 i32) (param $lids i32) (param $n i32) (param $block i32) (param $out i32)
    (local $from i32) (local $to i32) (local $j i32) (local $at i32) (local $a i32) (local $b i32) (local $words i32)
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $from) (local.get $n)))
        (local.set $to (i32.add (local.get $from) (local.get $block)))
        (if (i32.gt_u (local.get $to) (local.get $n)) (then (local.set $to (local.get $n))))
        (local.set $a (i32.const 0x3c6ef372))
        (local.set $b (i32.const 0x5be0cd19))
        (local.set $j (local.get $from))
        ;; Two lines (six words) at a time: a takes h1, LID, then the next line's h2; b the others.
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.gt_u (i32.add (local.get $j) (i32.const 2)) (local.get $to)))
            (local.set $at (i32.shl (local.get $j) (i32.const 2)))
            (local.set $a (i32.add (i32.mul (i32.rotl (i32.xor (local.get $a)
              (i32.mul (i32.rotl (i32.mul (i32.load (i32.add (local.get $h1) (local.get $at))) (i32.const 0xcc9e2d51)) (i32.const 15)) (i32.const 0x1b873593)))
              (i32.const 13)) (i32.const 5)) (i32.const 0xe6546b64)))
            (local.set $b (i32.add (i32.mul (i32.rotl (i32.xor (local.get $b)
              (i32.mul (i32.rotl (i32.mul (i32.load (i32.add (local.get $h2) (local.get $at))) (i32.const 0x85ebca6b)) (i32.const 16)) (i32.const 0xc2b2ae35)))
              (i32.const 17)) (i32.const 5)) (i32.const 0x561ccd1b)))
            (local.set $a (i32.add (i32.mul (i32.rotl (i32.xor (local.get $a)
              (i32.mul (i32.rotl (i32.mul (i32.load (i32.add (local.get $lids) (local.get $at))) (i32.const 0xcc9e2d51)) (i32.const 15)) (i32.const 0x1b873593)))
              (i32.const 13)) (i32.const 5)) (i32.const 0xe6546b64)))
            (local.set $b (i32.add (i32.mul (i32.rotl (i32.xor (local.get $b)
              (i32.mul (i32.rotl (i32.mul (i32.load offset=4 (i32.add (local.get $h1) (local.get $at))) (i32.const 0x85ebca6b)) (i32.const 16)) (i32.const 0xc2b2ae35)))
              (i32.const 17)) (i32.const 5)) (i32.const 0x561ccd1b)))
            (local.set $a (i32.add (i32.mul (i32.rotl (i32.xor (local.get $a)
              (i32.mul (i32.rotl (i32.mul (i32.load offset=4 (i32.add (local.get $h2) (local.get $at))) (i32.const 0xcc9e2d51)) (i32.const 15)) (i32.const 0x1b873593)))
              (i32.const 13)) (i32.const 5)) (i32.const 0xe6546b64)))
            (local.set $b (i32.add (i32.mul (i32.rotl (i32.xor (local.get $b)
              (i32.mul (i32.rotl (i32.mul (i32.load offset=4 (i32.add (local.get $lids) (local.get $at))) (i32.const 0x85ebca6b)) (i32.const 16)) (i32.const 0xc2b2ae35)))
              (i32.const 17)) (i32.const 5)) (i32.const 0x561ccd1b)))
            (local.set $j (i32.add (local.get $j) (i32.const 2)))
            (br $pairs)))
        ;; A last line alone: its LID is the odd word out, taken into lane a without the mix's end.
        (if (i32.lt_u (local.get $j) (local.get $to))
          (then
            (local.set $at (i32.shl (local.get $j) (i32.const 2)))
            (local.set $a (call $mixA (local.get $a) (i32.load (i32.add (local.get $h1) (local.get $at)))))
            (local.set $b (call $mixB (local.get $b) (i32.load (i32.add (local.get $h2) (local.get $at)))))
            (local.set $a (i32.xor (local.get $a)
              (i32.mul (i32.rotl (i32.mul (i32.load (i32.add (local.get $lids) (local.get $at))) (i32.const 0xcc9e2d51)) (i32.const 15)) (i32.const 0x1b873593))))))
        ;; digest.ts's finish.
        (local.set $words (i32.mul (i32.sub (local.get $to) (local.get $from)) (i32.const 3)))
        (local.set $a (i32.xor (local.get $a) (local.get $words)))
        (local.set $b (i32.xor (local.get $b) (local.get $words)))
        (local.set $a (i32.add (local.get $a) (local.get $b)))
        (local.set $b (i32.add (local.get $b) (local.get $a)))
        (local.set $a (call $fmix (local.get $a)))
        (local.set $b (call $fmix (local.get $b)))
        (local.set $a (i32.add (local.get $a) (local.get $b)))
        (local.set $b (i32.add (local.get $b) (local.get $a)))
        (i32.store (local.get $out) (local.get $a))
        (i32.store offset=4 (local.get $out) (local.get $b))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (local.set $from (local.get $to))
        (br $blocks))))
)
