// Types for the talisman modules the spec files use as a reference implementation (talisman ships none).
declare module 'talisman/metrics/levenshtein' {
  const levenshtein: (a: string, b: string) => number;
  export default levenshtein;
}
declare module 'talisman/metrics/jaro-winkler' {
  export const similarity: (a: string, b: string) => number;
}
declare module 'talisman/phonetics/soundex' {
  const soundex: (name: string) => string;
  export default soundex;
}
