/**
 * What `\s` matches in a regular expression, one UTF-16 code unit at a time: for loops over long
 * text that must agree with the patterns elsewhere without running one per character.
 */

/** Whether `code` is ECMAScript WhiteSpace or a LineTerminator, as `/\s/` has them. */
export function isSpaceCode(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}
