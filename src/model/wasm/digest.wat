;; The lanes of digestText (src/model/digest.ts) over bytes, each byte one code unit: what a text
;; of ASCII characters gives, in one pass at a few times the speed of the JavaScript loop. The OR
;; of every byte is returned, so that the caller knows whether they were all ASCII (else the text
;; is not the bytes, and the JavaScript digest of the decoded text is taken instead). And the
;; lanes of digestWords over 32-bit words read from bytes (little-endian, as WebAssembly reads
;; them), for digestBytes. See src/model/wasmDigest.ts, which holds this module assembled;
;; test/model/wasmAssembled.test.ts checks that it does.

(module
  (import "env" "memory" (memory 1))

  ;; Lanes a and b of the bytes $p..$end from $a and $b, written at $out and $out + 4; returns
  ;; the OR of the bytes.
  (func (export "lanes") (param $p i32) (param $end i32) (param $a i32) (param $b i32) (param $out i32) (result i32)
    (local $k i32) (local $m i32) (local $or i32)
    (block $done
      (loop $pairs
        (br_if $done (i32.ge_u (i32.add (local.get $p) (i32.const 1)) (local.get $end)))
        (local.set $k (i32.load8_u (local.get $p)))
        (local.set $m (i32.load8_u offset=1 (local.get $p)))
        (local.set $or (i32.or (local.get $or) (i32.or (local.get $k) (local.get $m))))
        (local.set $k (i32.mul (i32.rotl (i32.mul (local.get $k) (i32.const 0xcc9e2d51)) (i32.const 15))
          (i32.const 0x1b873593)))
        (local.set $a (i32.add (i32.mul (i32.rotl (i32.xor (local.get $a) (local.get $k)) (i32.const 13)) (i32.const 5))
          (i32.const 0xe6546b64)))
        (local.set $m (i32.mul (i32.rotl (i32.mul (local.get $m) (i32.const 0x85ebca6b)) (i32.const 16))
          (i32.const 0xc2b2ae35)))
        (local.set $b (i32.add (i32.mul (i32.rotl (i32.xor (local.get $b) (local.get $m)) (i32.const 17)) (i32.const 5))
          (i32.const 0x561ccd1b)))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $pairs)))
    ;; An odd last byte: mixed into lane a, which is not stirred after it.
    (if (i32.lt_u (local.get $p) (local.get $end))
      (then
        (local.set $k (i32.load8_u (local.get $p)))
        (local.set $or (i32.or (local.get $or) (local.get $k)))
        (local.set $a (i32.xor (local.get $a)
          (i32.mul (i32.rotl (i32.mul (local.get $k) (i32.const 0xcc9e2d51)) (i32.const 15)) (i32.const 0x1b873593))))))
    (i32.store (local.get $out) (local.get $a))
    (i32.store offset=4 (local.get $out) (local.get $b))
    (local.get $or))

  ;; Lanes a and b of digestWords over the words at $p..$end (a whole number of them) from $a and
  ;; $b, written at $out and $out + 4: lane a takes the even words, lane b the odd ones.
  (func (export "words") (param $p i32) (param $end i32) (param $a i32) (param $b i32) (param $out i32)
    (local $k i32) (local $m i32)
    (block $done
      (loop $pairs
        (br_if $done (i32.gt_u (i32.add (local.get $p) (i32.const 8)) (local.get $end)))
        (local.set $k (i32.mul (i32.rotl (i32.mul (i32.load (local.get $p)) (i32.const 0xcc9e2d51)) (i32.const 15))
          (i32.const 0x1b873593)))
        (local.set $a (i32.add (i32.mul (i32.rotl (i32.xor (local.get $a) (local.get $k)) (i32.const 13)) (i32.const 5))
          (i32.const 0xe6546b64)))
        (local.set $m (i32.mul (i32.rotl (i32.mul (i32.load offset=4 (local.get $p)) (i32.const 0x85ebca6b))
          (i32.const 16)) (i32.const 0xc2b2ae35)))
        (local.set $b (i32.add (i32.mul (i32.rotl (i32.xor (local.get $b) (local.get $m)) (i32.const 17)) (i32.const 5))
          (i32.const 0x561ccd1b)))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (br $pairs)))
    ;; An odd last word: mixed into lane a, which is not stirred after it.
    (if (i32.lt_u (local.get $p) (local.get $end))
      (then
        (local.set $a (i32.xor (local.get $a)
          (i32.mul (i32.rotl (i32.mul (i32.load (local.get $p)) (i32.const 0xcc9e2d51)) (i32.const 15))
            (i32.const 0x1b873593))))))
    (i32.store (local.get $out) (local.get $a))
    (i32.store offset=4 (local.get $out) (local.get $b)))
)
