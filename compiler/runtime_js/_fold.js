/**
 * Case folding as CPython 3.11's str.casefold does it, for the code points
 * where it differs from String.prototype.toLowerCase applied to the code point
 * alone (full case folding: "ß" is "ss", the final sigma is "σ", Cherokee folds
 * to upper case; and the characters newer than Python's Unicode 14 data, which
 * Python leaves as they are). Unicode data, not rules data: tests/js checks
 * fold() against Python's casefold for every code point.
 */

const SPECIAL = new Map([
  [0xb5, "\u03bc"], [0xdf, "ss"], [0x149, "\u02bcn"], [0x17f, "s"],
  [0x1f0, "j\u030c"], [0x345, "\u03b9"], [0x390, "\u03b9\u0308\u0301"], [0x3b0, "\u03c5\u0308\u0301"],
  [0x3c2, "\u03c3"], [0x3d0, "\u03b2"], [0x3d1, "\u03b8"], [0x3d5, "\u03c6"],
  [0x3d6, "\u03c0"], [0x3f0, "\u03ba"], [0x3f1, "\u03c1"], [0x3f5, "\u03b5"],
  [0x587, "\u0565\u0582"], [0x13a0, "\u13a0"], [0x13a1, "\u13a1"], [0x13a2, "\u13a2"],
  [0x13a3, "\u13a3"], [0x13a4, "\u13a4"], [0x13a5, "\u13a5"], [0x13a6, "\u13a6"],
  [0x13a7, "\u13a7"], [0x13a8, "\u13a8"], [0x13a9, "\u13a9"], [0x13aa, "\u13aa"],
  [0x13ab, "\u13ab"], [0x13ac, "\u13ac"], [0x13ad, "\u13ad"], [0x13ae, "\u13ae"],
  [0x13af, "\u13af"], [0x13b0, "\u13b0"], [0x13b1, "\u13b1"], [0x13b2, "\u13b2"],
  [0x13b3, "\u13b3"], [0x13b4, "\u13b4"], [0x13b5, "\u13b5"], [0x13b6, "\u13b6"],
  [0x13b7, "\u13b7"], [0x13b8, "\u13b8"], [0x13b9, "\u13b9"], [0x13ba, "\u13ba"],
  [0x13bb, "\u13bb"], [0x13bc, "\u13bc"], [0x13bd, "\u13bd"], [0x13be, "\u13be"],
  [0x13bf, "\u13bf"], [0x13c0, "\u13c0"], [0x13c1, "\u13c1"], [0x13c2, "\u13c2"],
  [0x13c3, "\u13c3"], [0x13c4, "\u13c4"], [0x13c5, "\u13c5"], [0x13c6, "\u13c6"],
  [0x13c7, "\u13c7"], [0x13c8, "\u13c8"], [0x13c9, "\u13c9"], [0x13ca, "\u13ca"],
  [0x13cb, "\u13cb"], [0x13cc, "\u13cc"], [0x13cd, "\u13cd"], [0x13ce, "\u13ce"],
  [0x13cf, "\u13cf"], [0x13d0, "\u13d0"], [0x13d1, "\u13d1"], [0x13d2, "\u13d2"],
  [0x13d3, "\u13d3"], [0x13d4, "\u13d4"], [0x13d5, "\u13d5"], [0x13d6, "\u13d6"],
  [0x13d7, "\u13d7"], [0x13d8, "\u13d8"], [0x13d9, "\u13d9"], [0x13da, "\u13da"],
  [0x13db, "\u13db"], [0x13dc, "\u13dc"], [0x13dd, "\u13dd"], [0x13de, "\u13de"],
  [0x13df, "\u13df"], [0x13e0, "\u13e0"], [0x13e1, "\u13e1"], [0x13e2, "\u13e2"],
  [0x13e3, "\u13e3"], [0x13e4, "\u13e4"], [0x13e5, "\u13e5"], [0x13e6, "\u13e6"],
  [0x13e7, "\u13e7"], [0x13e8, "\u13e8"], [0x13e9, "\u13e9"], [0x13ea, "\u13ea"],
  [0x13eb, "\u13eb"], [0x13ec, "\u13ec"], [0x13ed, "\u13ed"], [0x13ee, "\u13ee"],
  [0x13ef, "\u13ef"], [0x13f0, "\u13f0"], [0x13f1, "\u13f1"], [0x13f2, "\u13f2"],
  [0x13f3, "\u13f3"], [0x13f4, "\u13f4"], [0x13f5, "\u13f5"], [0x13f8, "\u13f0"],
  [0x13f9, "\u13f1"], [0x13fa, "\u13f2"], [0x13fb, "\u13f3"], [0x13fc, "\u13f4"],
  [0x13fd, "\u13f5"], [0x1c80, "\u0432"], [0x1c81, "\u0434"], [0x1c82, "\u043e"],
  [0x1c83, "\u0441"], [0x1c84, "\u0442"], [0x1c85, "\u0442"], [0x1c86, "\u044a"],
  [0x1c87, "\u0463"], [0x1c88, "\ua64b"], [0x1c89, "\u1c89"], [0x1e96, "h\u0331"],
  [0x1e97, "t\u0308"], [0x1e98, "w\u030a"], [0x1e99, "y\u030a"], [0x1e9a, "a\u02be"],
  [0x1e9b, "\u1e61"], [0x1e9e, "ss"], [0x1f50, "\u03c5\u0313"], [0x1f52, "\u03c5\u0313\u0300"],
  [0x1f54, "\u03c5\u0313\u0301"], [0x1f56, "\u03c5\u0313\u0342"], [0x1f80, "\u1f00\u03b9"], [0x1f81, "\u1f01\u03b9"],
  [0x1f82, "\u1f02\u03b9"], [0x1f83, "\u1f03\u03b9"], [0x1f84, "\u1f04\u03b9"], [0x1f85, "\u1f05\u03b9"],
  [0x1f86, "\u1f06\u03b9"], [0x1f87, "\u1f07\u03b9"], [0x1f88, "\u1f00\u03b9"], [0x1f89, "\u1f01\u03b9"],
  [0x1f8a, "\u1f02\u03b9"], [0x1f8b, "\u1f03\u03b9"], [0x1f8c, "\u1f04\u03b9"], [0x1f8d, "\u1f05\u03b9"],
  [0x1f8e, "\u1f06\u03b9"], [0x1f8f, "\u1f07\u03b9"], [0x1f90, "\u1f20\u03b9"], [0x1f91, "\u1f21\u03b9"],
  [0x1f92, "\u1f22\u03b9"], [0x1f93, "\u1f23\u03b9"], [0x1f94, "\u1f24\u03b9"], [0x1f95, "\u1f25\u03b9"],
  [0x1f96, "\u1f26\u03b9"], [0x1f97, "\u1f27\u03b9"], [0x1f98, "\u1f20\u03b9"], [0x1f99, "\u1f21\u03b9"],
  [0x1f9a, "\u1f22\u03b9"], [0x1f9b, "\u1f23\u03b9"], [0x1f9c, "\u1f24\u03b9"], [0x1f9d, "\u1f25\u03b9"],
  [0x1f9e, "\u1f26\u03b9"], [0x1f9f, "\u1f27\u03b9"], [0x1fa0, "\u1f60\u03b9"], [0x1fa1, "\u1f61\u03b9"],
  [0x1fa2, "\u1f62\u03b9"], [0x1fa3, "\u1f63\u03b9"], [0x1fa4, "\u1f64\u03b9"], [0x1fa5, "\u1f65\u03b9"],
  [0x1fa6, "\u1f66\u03b9"], [0x1fa7, "\u1f67\u03b9"], [0x1fa8, "\u1f60\u03b9"], [0x1fa9, "\u1f61\u03b9"],
  [0x1faa, "\u1f62\u03b9"], [0x1fab, "\u1f63\u03b9"], [0x1fac, "\u1f64\u03b9"], [0x1fad, "\u1f65\u03b9"],
  [0x1fae, "\u1f66\u03b9"], [0x1faf, "\u1f67\u03b9"], [0x1fb2, "\u1f70\u03b9"], [0x1fb3, "\u03b1\u03b9"],
  [0x1fb4, "\u03ac\u03b9"], [0x1fb6, "\u03b1\u0342"], [0x1fb7, "\u03b1\u0342\u03b9"], [0x1fbc, "\u03b1\u03b9"],
  [0x1fbe, "\u03b9"], [0x1fc2, "\u1f74\u03b9"], [0x1fc3, "\u03b7\u03b9"], [0x1fc4, "\u03ae\u03b9"],
  [0x1fc6, "\u03b7\u0342"], [0x1fc7, "\u03b7\u0342\u03b9"], [0x1fcc, "\u03b7\u03b9"], [0x1fd2, "\u03b9\u0308\u0300"],
  [0x1fd3, "\u03b9\u0308\u0301"], [0x1fd6, "\u03b9\u0342"], [0x1fd7, "\u03b9\u0308\u0342"], [0x1fe2, "\u03c5\u0308\u0300"],
  [0x1fe3, "\u03c5\u0308\u0301"], [0x1fe4, "\u03c1\u0313"], [0x1fe6, "\u03c5\u0342"], [0x1fe7, "\u03c5\u0308\u0342"],
  [0x1ff2, "\u1f7c\u03b9"], [0x1ff3, "\u03c9\u03b9"], [0x1ff4, "\u03ce\u03b9"], [0x1ff6, "\u03c9\u0342"],
  [0x1ff7, "\u03c9\u0342\u03b9"], [0x1ffc, "\u03c9\u03b9"], [0xa7cb, "\ua7cb"], [0xa7cc, "\ua7cc"],
  [0xa7ce, "\ua7ce"], [0xa7d2, "\ua7d2"], [0xa7d4, "\ua7d4"], [0xa7da, "\ua7da"],
  [0xa7dc, "\ua7dc"], [0xab70, "\u13a0"], [0xab71, "\u13a1"], [0xab72, "\u13a2"],
  [0xab73, "\u13a3"], [0xab74, "\u13a4"], [0xab75, "\u13a5"], [0xab76, "\u13a6"],
  [0xab77, "\u13a7"], [0xab78, "\u13a8"], [0xab79, "\u13a9"], [0xab7a, "\u13aa"],
  [0xab7b, "\u13ab"], [0xab7c, "\u13ac"], [0xab7d, "\u13ad"], [0xab7e, "\u13ae"],
  [0xab7f, "\u13af"], [0xab80, "\u13b0"], [0xab81, "\u13b1"], [0xab82, "\u13b2"],
  [0xab83, "\u13b3"], [0xab84, "\u13b4"], [0xab85, "\u13b5"], [0xab86, "\u13b6"],
  [0xab87, "\u13b7"], [0xab88, "\u13b8"], [0xab89, "\u13b9"], [0xab8a, "\u13ba"],
  [0xab8b, "\u13bb"], [0xab8c, "\u13bc"], [0xab8d, "\u13bd"], [0xab8e, "\u13be"],
  [0xab8f, "\u13bf"], [0xab90, "\u13c0"], [0xab91, "\u13c1"], [0xab92, "\u13c2"],
  [0xab93, "\u13c3"], [0xab94, "\u13c4"], [0xab95, "\u13c5"], [0xab96, "\u13c6"],
  [0xab97, "\u13c7"], [0xab98, "\u13c8"], [0xab99, "\u13c9"], [0xab9a, "\u13ca"],
  [0xab9b, "\u13cb"], [0xab9c, "\u13cc"], [0xab9d, "\u13cd"], [0xab9e, "\u13ce"],
  [0xab9f, "\u13cf"], [0xaba0, "\u13d0"], [0xaba1, "\u13d1"], [0xaba2, "\u13d2"],
  [0xaba3, "\u13d3"], [0xaba4, "\u13d4"], [0xaba5, "\u13d5"], [0xaba6, "\u13d6"],
  [0xaba7, "\u13d7"], [0xaba8, "\u13d8"], [0xaba9, "\u13d9"], [0xabaa, "\u13da"],
  [0xabab, "\u13db"], [0xabac, "\u13dc"], [0xabad, "\u13dd"], [0xabae, "\u13de"],
  [0xabaf, "\u13df"], [0xabb0, "\u13e0"], [0xabb1, "\u13e1"], [0xabb2, "\u13e2"],
  [0xabb3, "\u13e3"], [0xabb4, "\u13e4"], [0xabb5, "\u13e5"], [0xabb6, "\u13e6"],
  [0xabb7, "\u13e7"], [0xabb8, "\u13e8"], [0xabb9, "\u13e9"], [0xabba, "\u13ea"],
  [0xabbb, "\u13eb"], [0xabbc, "\u13ec"], [0xabbd, "\u13ed"], [0xabbe, "\u13ee"],
  [0xabbf, "\u13ef"], [0xfb00, "ff"], [0xfb01, "fi"], [0xfb02, "fl"],
  [0xfb03, "ffi"], [0xfb04, "ffl"], [0xfb05, "st"], [0xfb06, "st"],
  [0xfb13, "\u0574\u0576"], [0xfb14, "\u0574\u0565"], [0xfb15, "\u0574\u056b"], [0xfb16, "\u057e\u0576"],
  [0xfb17, "\u0574\u056d"], [0x10d50, "\u{10d50}"], [0x10d51, "\u{10d51}"], [0x10d52, "\u{10d52}"],
  [0x10d53, "\u{10d53}"], [0x10d54, "\u{10d54}"], [0x10d55, "\u{10d55}"], [0x10d56, "\u{10d56}"],
  [0x10d57, "\u{10d57}"], [0x10d58, "\u{10d58}"], [0x10d59, "\u{10d59}"], [0x10d5a, "\u{10d5a}"],
  [0x10d5b, "\u{10d5b}"], [0x10d5c, "\u{10d5c}"], [0x10d5d, "\u{10d5d}"], [0x10d5e, "\u{10d5e}"],
  [0x10d5f, "\u{10d5f}"], [0x10d60, "\u{10d60}"], [0x10d61, "\u{10d61}"], [0x10d62, "\u{10d62}"],
  [0x10d63, "\u{10d63}"], [0x10d64, "\u{10d64}"], [0x10d65, "\u{10d65}"], [0x16ea0, "\u{16ea0}"],
  [0x16ea1, "\u{16ea1}"], [0x16ea2, "\u{16ea2}"], [0x16ea3, "\u{16ea3}"], [0x16ea4, "\u{16ea4}"],
  [0x16ea5, "\u{16ea5}"], [0x16ea6, "\u{16ea6}"], [0x16ea7, "\u{16ea7}"], [0x16ea8, "\u{16ea8}"],
  [0x16ea9, "\u{16ea9}"], [0x16eaa, "\u{16eaa}"], [0x16eab, "\u{16eab}"], [0x16eac, "\u{16eac}"],
  [0x16ead, "\u{16ead}"], [0x16eae, "\u{16eae}"], [0x16eaf, "\u{16eaf}"], [0x16eb0, "\u{16eb0}"],
  [0x16eb1, "\u{16eb1}"], [0x16eb2, "\u{16eb2}"], [0x16eb3, "\u{16eb3}"], [0x16eb4, "\u{16eb4}"],
  [0x16eb5, "\u{16eb5}"], [0x16eb6, "\u{16eb6}"], [0x16eb7, "\u{16eb7}"], [0x16eb8, "\u{16eb8}"],
]);

const ASCII = /^[\x00-\x7f]*$/;

/** `text` case-folded as CPython's str.casefold folds it. */
export function fold(text) {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    const special = SPECIAL.get(cp);
    out += special !== undefined ? special : ch.toLowerCase();
  }
  return out;
}
