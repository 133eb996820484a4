;; The first claims of a big file's fresh LIDs (see src/model/freshLids.ts, firstClaims): each
;; line's first two candidates that hold a letter, claimed in a bitmap of every code's value; the
;; codes claimed again listed, and marked in a filter of their hashes; the lines whose first
;; candidate may have been claimed again (its filter bit set); and the moves of the rounds that
;; settle the clashes (reserve, claim, stay). See
;; src/model/wasmClaims.ts, which holds these functions assembled;
;; test/model/wasmAssembled.test.ts checks that it does.

(module
  (import "env" "memory" (memory 1))

  ;; For lines 0..n-1 with keys at $k1 and $k2 (32-bit words): the code of each line's first
  ;; candidate with a letter goes to $lids, and it and the next such candidate are claimed: a
  ;; code claimed before is written at $again (returns how many) and its bit set in the filter
  ;; at $filter (bit (code·0x9e3779b1) >> $shift).
  ;; A candidate is (k1 + k·(k2 | 1)) masked to the 5·$length bits of a code's value; it holds
  ;; a letter when one of its 5-bit digits is 16 or more, or its low 4 bits and 6 make 16 or
  ;; more: all digits tested at once, each in its own 5 bits (no carry leaves them).
  (func (export "first") (param $k1 i32) (param $k2 i32) (param $lids i32) (param $n i32) (param $length i32)
      (param $once i32) (param $again i32) (param $filter i32) (param $shift i32) (result i32)
    (local $i i32) (local $a i32) (local $step i32) (local $k i32) (local $value i32) (local $mask i32) (local $kind i32)
      (local $at i32) (local $low i32) (local $six i32) (local $high i32) (local $word i32) (local $bit i32) (local $bits i32) (local $count i32)
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (i32.mul (local.get $length) (i32.const 5))) (i32.const 1)))
    (local.set $kind (i32.shl (i32.sub (local.get $length) (i32.const 4)) (i32.const 30)))
    ;; 0b01111, 0b00110 and 0b10000 in every digit
    (local.set $low (i32.and (i32.const 0x1ef7bdef) (local.get $mask)))
    (local.set $six (i32.and (i32.const 0x0c6318c6) (local.get $mask)))
    (local.set $high (i32.and (i32.const 0x21084210) (local.get $mask)))
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.shl (local.get $i) (i32.const 2)))
        (local.set $a (i32.load (i32.add (local.get $k1) (local.get $at))))
        (local.set $step (i32.or (i32.load (i32.add (local.get $k2) (local.get $at))) (i32.const 1)))
        (local.set $k (i32.const 0))
        (local.set $value (i32.and (local.get $a) (local.get $mask)))
        (block $held
          (loop $tries
            (br_if $held (i32.and (local.get $high)
              (i32.or (local.get $value) (i32.add (i32.and (local.get $value) (local.get $low)) (local.get $six)))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (local.set $value (i32.and (i32.add (local.get $a) (i32.mul (local.get $k) (local.get $step))) (local.get $mask)))
            (br $tries)))
        (i32.store (i32.add (local.get $lids) (local.get $at)) (i32.or (local.get $kind) (local.get $value)))
        ;; claimed: its bit set in the bitmap at $once, or listed again when set already
        (local.set $word (i32.shl (i32.shr_u (local.get $value) (i32.const 5)) (i32.const 2)))
        (local.set $bit (i32.shl (i32.const 1) (local.get $value)))
        (local.set $bits (i32.load (i32.add (local.get $once) (local.get $word))))
        (if (i32.and (local.get $bits) (local.get $bit))
          (then (call $again (i32.or (local.get $kind) (local.get $value)) (local.get $again) (local.get $count)
            (local.get $filter) (local.get $shift))
            (local.set $count (i32.add (local.get $count) (i32.const 1))))
          (else (i32.store (i32.add (local.get $once) (local.get $word)) (i32.or (local.get $bits) (local.get $bit)))))
        (loop $reserve
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (local.set $value (i32.and (i32.add (local.get $a) (i32.mul (local.get $k) (local.get $step))) (local.get $mask)))
          (br_if $reserve (i32.eqz (i32.and (local.get $high)
            (i32.or (local.get $value) (i32.add (i32.and (local.get $value) (local.get $low)) (local.get $six)))))))
        ;; claimed, as the first
        (local.set $word (i32.shl (i32.shr_u (local.get $value) (i32.const 5)) (i32.const 2)))
        (local.set $bit (i32.shl (i32.const 1) (local.get $value)))
        (local.set $bits (i32.load (i32.add (local.get $once) (local.get $word))))
        (if (i32.and (local.get $bits) (local.get $bit))
          (then (call $again (i32.or (local.get $kind) (local.get $value)) (local.get $again) (local.get $count)
            (local.get $filter) (local.get $shift))
            (local.set $count (i32.add (local.get $count) (i32.const 1))))
          (else (i32.store (i32.add (local.get $once) (local.get $word)) (i32.or (local.get $bits) (local.get $bit)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $lines)))
    (local.get $count))

  ;; Writes $code at $list's $at-th word and sets its bit in the filter at $filter.
  (func $again (param $code i32) (param $list i32) (param $at i32) (param $filter i32) (param $shift i32)
    (local $bit i32)
    (i32.store (i32.add (local.get $list) (i32.shl (local.get $at) (i32.const 2))) (local.get $code))
    (local.set $bit (i32.shr_u (i32.mul (local.get $code) (i32.const 0x9e3779b1)) (local.get $shift)))
    (i32.store (i32.add (local.get $filter) (i32.shl (i32.shr_u (local.get $bit) (i32.const 5)) (i32.const 2)))
      (i32.or (i32.load (i32.add (local.get $filter) (i32.shl (i32.shr_u (local.get $bit) (i32.const 5)) (i32.const 2))))
        (i32.shl (i32.const 1) (local.get $bit)))))

  ;; Writes at $out (32-bit words), plus $base, each line of from..to-1 whose code at $lids has
  ;; its bit set in the filter at $filter (see first) and its value's (code & $mask) in the bitmap
  ;; at $twice (claimed twice), and returns how many it wrote.
  (func (export "pending") (param $lids i32) (param $from i32) (param $to i32) (param $filter i32) (param $shift i32)
      (param $mask i32) (param $twice i32) (param $base i32) (param $out i32) (result i32)
    (local $i i32) (local $bit i32) (local $count i32) (local $value i32)
    (local.set $i (local.get $from))
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
        (local.set $value (i32.load (i32.add (local.get $lids) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $bit (i32.shr_u (i32.mul (local.get $value) (i32.const 0x9e3779b1)) (local.get $shift)))
        (if (i32.and
              (i32.load (i32.add (local.get $filter) (i32.shl (i32.shr_u (local.get $bit) (i32.const 5)) (i32.const 2))))
              (i32.shl (i32.const 1) (local.get $bit)))
          (then
            (local.set $value (i32.and (local.get $value) (local.get $mask)))
            (if (i32.and
                  (i32.load (i32.add (local.get $twice) (i32.shl (i32.shr_u (local.get $value) (i32.const 5)) (i32.const 2))))
                  (i32.shl (i32.const 1) (local.get $value)))
              (then
                (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2)))
                  (i32.add (local.get $base) (local.get $i)))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $lines)))
    (local.get $count))
  ;; A round of the clashes (see src/model/clashRounds.ts), its first half, for lines $moving
  ;; (32-bit words, $m of them) with keys at $k1 and $k2: each line's code at $held (its code's
  ;; value: kind bits cleared or not) is replaced by its reserve, the first candidate with a
  ;; letter after it, and the next such candidate (its new reserve) is written at $reserves,
  ;; with bit 31 set when the bitmap at $once holds it before this round's claims.
  (func (export "reserve") (param $k1 i32) (param $k2 i32) (param $moving i32) (param $held i32) (param $m i32)
      (param $length i32) (param $once i32) (param $reserves i32)
    (local $j i32) (local $at i32) (local $a i32) (local $step i32) (local $k i32) (local $value i32) (local $target i32)
      (local $mask i32) (local $kind i32) (local $low i32) (local $six i32) (local $high i32)
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (i32.mul (local.get $length) (i32.const 5))) (i32.const 1)))
    (local.set $kind (i32.shl (i32.sub (local.get $length) (i32.const 4)) (i32.const 30)))
    (local.set $low (i32.and (i32.const 0x1ef7bdef) (local.get $mask)))
    (local.set $six (i32.and (i32.const 0x0c6318c6) (local.get $mask)))
    (local.set $high (i32.and (i32.const 0x21084210) (local.get $mask)))
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $j) (local.get $m)))
        (local.set $at (i32.shl (i32.load (i32.add (local.get $moving) (i32.shl (local.get $j) (i32.const 2)))) (i32.const 2)))
        (local.set $a (i32.load (i32.add (local.get $k1) (local.get $at))))
        (local.set $step (i32.or (i32.load (i32.add (local.get $k2) (local.get $at))) (i32.const 1)))
        ;; The candidate the line holds (one of its own, so found).
        (local.set $target (i32.and (i32.load (i32.add (local.get $held) (i32.shl (local.get $j) (i32.const 2))))
          (local.get $mask)))
        (local.set $k (i32.const 0))
        (local.set $value (i32.and (local.get $a) (local.get $mask)))
        (block $found
          (loop $find
            (br_if $found (i32.eq (local.get $value) (local.get $target)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (local.set $value (i32.and (i32.add (local.get $a) (i32.mul (local.get $k) (local.get $step))) (local.get $mask)))
            (br $find)))
        ;; Its reserve, then the next: each the next candidate with a letter.
        (loop $next
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (local.set $value (i32.and (i32.add (local.get $a) (i32.mul (local.get $k) (local.get $step))) (local.get $mask)))
          (br_if $next (i32.eqz (i32.and (local.get $high)
            (i32.or (local.get $value) (i32.add (i32.and (local.get $value) (local.get $low)) (local.get $six)))))))
        (i32.store (i32.add (local.get $held) (i32.shl (local.get $j) (i32.const 2))) (i32.or (local.get $kind) (local.get $value)))
        (loop $after
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (local.set $value (i32.and (i32.add (local.get $a) (i32.mul (local.get $k) (local.get $step))) (local.get $mask)))
          (br_if $after (i32.eqz (i32.and (local.get $high)
            (i32.or (local.get $value) (i32.add (i32.and (local.get $value) (local.get $low)) (local.get $six)))))))
        (i32.store (i32.add (local.get $reserves) (i32.shl (local.get $j) (i32.const 2)))
          (i32.or (i32.or (local.get $kind) (local.get $value))
            (select (i32.const 0x80000000) (i32.const 0)
              (i32.and (i32.load (i32.add (local.get $once) (i32.shl (i32.shr_u (local.get $value) (i32.const 5)) (i32.const 2))))
                (i32.shl (i32.const 1) (local.get $value))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $lines))))

  ;; The round's second half: each reserve at $reserves ($m, as reserve wrote them) claimed, in
  ;; the bitmaps at $once and $twice; a code claimed twice for the first time that the bitmap
  ;; at $once held before the round (bit 31) is written at $contested. Returns how many.
  (func (export "claim") (param $reserves i32) (param $m i32) (param $mask i32) (param $once i32) (param $twice i32)
      (param $contested i32) (result i32)
    (local $j i32) (local $code i32) (local $value i32) (local $word i32) (local $bit i32) (local $count i32)
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $j) (local.get $m)))
        (local.set $code (i32.load (i32.add (local.get $reserves) (i32.shl (local.get $j) (i32.const 2)))))
        (local.set $value (i32.and (local.get $code) (local.get $mask)))
        (local.set $word (i32.shl (i32.shr_u (local.get $value) (i32.const 5)) (i32.const 2)))
        (local.set $bit (i32.shl (i32.const 1) (local.get $value)))
        (if (i32.eqz (i32.and (i32.load (i32.add (local.get $once) (local.get $word))) (local.get $bit)))
          (then (i32.store (i32.add (local.get $once) (local.get $word))
            (i32.or (i32.load (i32.add (local.get $once) (local.get $word))) (local.get $bit))))
          (else (if (i32.eqz (i32.and (i32.load (i32.add (local.get $twice) (local.get $word))) (local.get $bit)))
            (then
              (i32.store (i32.add (local.get $twice) (local.get $word))
                (i32.or (i32.load (i32.add (local.get $twice) (local.get $word))) (local.get $bit)))
              (if (i32.lt_s (local.get $code) (i32.const 0))
                (then
                  (i32.store (i32.add (local.get $contested) (i32.shl (local.get $count) (i32.const 2)))
                    (i32.and (local.get $code) (i32.const 0x7fffffff)))
                  (local.set $count (i32.add (local.get $count) (i32.const 1)))))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $lines)))
    (local.get $count))

  ;; Writes at $out, in turn, the lines of $moving ($m) whose code at $held the bitmap at $twice
  ;; holds (they move on in the next round). Returns how many.
  (func (export "stay") (param $moving i32) (param $held i32) (param $m i32) (param $mask i32) (param $twice i32)
      (param $out i32) (result i32)
    (local $j i32) (local $value i32) (local $count i32)
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $j) (local.get $m)))
        (local.set $value (i32.and (i32.load (i32.add (local.get $held) (i32.shl (local.get $j) (i32.const 2))))
          (local.get $mask)))
        (if (i32.and (i32.load (i32.add (local.get $twice) (i32.shl (i32.shr_u (local.get $value) (i32.const 5)) (i32.const 2))))
              (i32.shl (i32.const 1) (local.get $value)))
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2)))
              (i32.load (i32.add (local.get $moving) (i32.shl (local.get $j) (i32.const 2)))))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $lines)))
    (local.get $count))

  ;; The keys of a big file's lines (see src/model/freshLids.ts, contextKeys), written over its
  ;; fingerprints in place: the first fingerprints at $h1, the second at $h2 (32-bit words), k1
  ;; and k2 then. A line whose content occurs once keeps its fingerprints as its key; only the
  ;; lines of stretches are rewritten. First a sieve on bits of the first fingerprint (sieve),
  ;; then the lines sharing a bucket marked (candidates), then the exact table of those (mark),
  ;; then each stretch keyed (keys). Each is called a range of lines at a time: WebAssembly's
  ;; optimised code comes in between calls only.

  ;; One step of MurmurHash3's word mixing (freshLids.ts, mixIn).
  (func $mix (param $h i32) (param $word i32) (result i32)
    (local.set $word (i32.mul (i32.rotl (i32.mul (local.get $word) (i32.const 0xcc9e2d51)) (i32.const 15))
      (i32.const 0x1b873593)))
    (i32.add (i32.mul (i32.rotl (i32.xor (local.get $h) (local.get $word)) (i32.const 13)) (i32.const 5))
      (i32.const 0xe6546b64)))

  ;; MurmurHash3's finaliser (hash.ts, fmix32).
  (func $fmix (param $h i32) (result i32)
    (local.set $h (i32.mul (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))) (i32.const 0x85ebca6b)))
    (local.set $h (i32.mul (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))

  ;; Lines $from..$to-1: the bit (h1 & $mask) of each set in the bitmap at $once, or, set there
  ;; already, in the bitmap at $twice.
  (func (export "sieve") (param $h1 i32) (param $from i32) (param $to i32) (param $mask i32) (param $once i32)
      (param $twice i32)
    (local $i i32) (local $x i32) (local $word i32) (local $bit i32) (local $bits i32)
    (local.set $i (local.get $from))
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
        (local.set $x (i32.and (i32.load (i32.add (local.get $h1) (i32.shl (local.get $i) (i32.const 2))))
          (local.get $mask)))
        (local.set $word (i32.shl (i32.shr_u (local.get $x) (i32.const 5)) (i32.const 2)))
        (local.set $bit (i32.shl (i32.const 1) (local.get $x)))
        (local.set $bits (i32.load (i32.add (local.get $once) (local.get $word))))
        (if (i32.and (local.get $bits) (local.get $bit))
          (then (i32.store (i32.add (local.get $twice) (local.get $word))
            (i32.or (i32.load (i32.add (local.get $twice) (local.get $word))) (local.get $bit))))
          (else (i32.store (i32.add (local.get $once) (local.get $word)) (i32.or (local.get $bits) (local.get $bit)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $lines)))
  )

  ;; Lines $from..$to-1: the byte at $flags of each whose bucket's bit the bitmap at $twice holds
  ;; set to 1 (it may repeat). Returns how many.
  (func (export "candidates") (param $h1 i32) (param $from i32) (param $to i32) (param $mask i32) (param $twice i32)
      (param $flags i32) (result i32)
    (local $i i32) (local $x i32) (local $count i32)
    (local.set $i (local.get $from))
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
        (local.set $x (i32.and (i32.load (i32.add (local.get $h1) (i32.shl (local.get $i) (i32.const 2))))
          (local.get $mask)))
        (if (i32.and (i32.load (i32.add (local.get $twice) (i32.shl (i32.shr_u (local.get $x) (i32.const 5)) (i32.const 2))))
              (i32.shl (i32.const 1) (local.get $x)))
          (then
            (i32.store8 (i32.add (local.get $flags) (local.get $i)) (i32.const 1))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $lines)))
    (local.get $count))

  ;; Lines $from..$to-1 flagged 1 at $flags whose h1 has $part in the bits of $partMask (the
  ;; table's part: see wasmClaims.ts, writeKeys), each looked up in the table at $table (open
  ;; addressing, $tmask + 1 slots of a line + 1, zeroed first) by its two fingerprints: the
  ;; first line of a content is entered; a later one, and that first, are flagged 2 (repeated).
  (func (export "mark") (param $h1 i32) (param $h2 i32) (param $from i32) (param $to i32) (param $flags i32)
      (param $table i32) (param $tmask i32) (param $partMask i32) (param $part i32)
    (local $i i32) (local $a i32) (local $b i32) (local $s i32) (local $first i32)
    (local.set $i (local.get $from))
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
        (if (i32.and (i32.ne (i32.load8_u (i32.add (local.get $flags) (local.get $i))) (i32.const 0))
              (i32.eq (i32.and (i32.load (i32.add (local.get $h1) (i32.shl (local.get $i) (i32.const 2))))
                (local.get $partMask)) (local.get $part)))
          (then
            (local.set $a (i32.load (i32.add (local.get $h1) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $b (i32.load (i32.add (local.get $h2) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $s (i32.and (i32.xor (local.get $a) (i32.mul (local.get $b) (i32.const 0x9e3779b1)))
              (local.get $tmask)))
            (block $found
              (loop $probe
                (local.set $first (i32.load (i32.add (local.get $table) (i32.shl (local.get $s) (i32.const 2)))))
                (if (i32.eqz (local.get $first))
                  (then
                    (i32.store (i32.add (local.get $table) (i32.shl (local.get $s) (i32.const 2)))
                      (i32.add (local.get $i) (i32.const 1)))
                    (br $found)))
                (local.set $first (i32.sub (local.get $first) (i32.const 1)))
                (if (i32.and
                      (i32.eq (i32.load (i32.add (local.get $h1) (i32.shl (local.get $first) (i32.const 2)))) (local.get $a))
                      (i32.eq (i32.load (i32.add (local.get $h2) (i32.shl (local.get $first) (i32.const 2)))) (local.get $b)))
                  (then
                    (i32.store8 (i32.add (local.get $flags) (local.get $first)) (i32.const 2))
                    (i32.store8 (i32.add (local.get $flags) (local.get $i)) (i32.const 2))
                    (br $found)))
                (local.set $s (i32.and (i32.add (local.get $s) (i32.const 1)) (local.get $tmask)))
                (br $probe)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $lines)))
  )

  ;; From line $from on, up to $to (or past it, to the end of a stretch begun before it), of $n
  ;; lines flagged at $flags: each stretch of lines flagged 2 keyed as keyStretch keys it, its
  ;; keys written over its fingerprints. Returns the line it stopped at.
  (func (export "keys") (param $h1 i32) (param $h2 i32) (param $n i32) (param $from i32) (param $to i32)
      (param $flags i32) (result i32)
    (local $i i32) (local $start i32) (local $end i32) (local $a i32) (local $b i32) (local $at i32) (local $d i32)
    (local.set $i (local.get $from))
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
        (if (i32.ne (i32.load8_u (i32.add (local.get $flags) (local.get $i))) (i32.const 2))
          (then
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $lines)))
        (local.set $start (local.get $i))
        (local.set $end (local.get $i))
        (block $ended
          (loop $stretch
            (br_if $ended (i32.ge_u (local.get $end) (local.get $n)))
            (br_if $ended (i32.ne (i32.load8_u (i32.add (local.get $flags) (local.get $end))) (i32.const 2)))
            (local.set $end (i32.add (local.get $end) (i32.const 1)))
            (br $stretch)))
        ;; the digest of the stretch with its bounding lines (whose content occurs once: their keys are their fingerprints)
        (if (local.get $start)
          (then
            (local.set $at (i32.shl (i32.sub (local.get $start) (i32.const 1)) (i32.const 2)))
            (local.set $a (i32.load (i32.add (local.get $h1) (local.get $at))))
            (local.set $b (i32.load (i32.add (local.get $h2) (local.get $at)))))
          (else
            (local.set $a (i32.const 0x6a09e667))
            (local.set $b (i32.const 0xbb67ae85))))
        (local.set $i (local.get $start))
        (block $mixed
          (loop $mixing
            (br_if $mixed (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $at (i32.shl (local.get $i) (i32.const 2)))
            (local.set $a (call $mix (local.get $a) (i32.load (i32.add (local.get $h1) (local.get $at)))))
            (local.set $b (call $mix (local.get $b) (i32.load (i32.add (local.get $h2) (local.get $at)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $mixing)))
        (if (i32.lt_u (local.get $end) (local.get $n))
          (then
            (local.set $at (i32.shl (local.get $end) (i32.const 2)))
            (local.set $a (call $mix (local.get $a) (i32.load (i32.add (local.get $h1) (local.get $at)))))
            (local.set $b (call $mix (local.get $b) (i32.load (i32.add (local.get $h2) (local.get $at))))))
          (else
            (local.set $a (call $mix (local.get $a) (i32.const 0xbb67ae85)))
            (local.set $b (call $mix (local.get $b) (i32.const 0x6a09e667)))))
        (local.set $a (call $fmix (i32.xor (local.get $a) (i32.sub (local.get $end) (local.get $start)))))
        (local.set $b (call $fmix (i32.xor (local.get $b)
          (i32.mul (i32.sub (local.get $end) (local.get $start)) (i32.const 0x5bd1e995)))))
        ;; each line's key: the digest, its offset and its content
        (local.set $i (local.get $start))
        (block $keyed
          (loop $keying
            (br_if $keyed (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $at (i32.shl (local.get $i) (i32.const 2)))
            (local.set $d (i32.add (i32.sub (local.get $i) (local.get $start)) (i32.const 1)))
            (i32.store (i32.add (local.get $h1) (local.get $at))
              (call $fmix (call $mix (call $mix (i32.xor (local.get $a) (i32.mul (local.get $d) (i32.const 0x27d4eb2f)))
                (i32.load (i32.add (local.get $h1) (local.get $at)))) (local.get $b))))
            (i32.store (i32.add (local.get $h2) (local.get $at))
              (call $fmix (call $mix (call $mix (i32.add (local.get $b) (i32.mul (local.get $d) (i32.const 0x165667b1)))
                (i32.load (i32.add (local.get $h2) (local.get $at)))) (local.get $a))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $keying)))
        (br $lines)))
    (local.get $i))
)
