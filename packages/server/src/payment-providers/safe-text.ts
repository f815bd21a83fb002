/**
 * Text from a provider (or a forger) made storable and short: NUL and unpaired UTF-16 surrogates, which neither
 * database stores as sent (docs/errors.md, "Text"), become U+FFFD; past `max` characters it is cut.
 */
export function safeText(text: string, max: number): string {
  const clean = text.replace(/\u0000/g, '\ufffd').replace(/[\uD800-\uDFFF]/gu, '\ufffd');
  if (clean.length <= max) return clean;
  // Not between the halves of a pair.
  return /[\uD800-\uDBFF]/.test(clean[max - 1]!) ? clean.slice(0, max - 1) : clean.slice(0, max);
}
