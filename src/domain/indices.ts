/**
 * An index name as matched: lower case, letters and digits only, so "CAC 40", "cac40" and "CAC-40"
 * are one name, and "^FCHI" is "fchi".
 * @example indexKey("Euro Stoxx 50") // "eurostoxx50"
 */
export const indexKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");
