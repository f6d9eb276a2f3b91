import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface DevKeys {
  full: string;
  readOnly: string;
  generated: boolean;
}

/** Settings of a `.dev.vars` file (KEY=value lines). */
export function readDevVars(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (m?.[1] && m[2]) out[m[1]] = m[2].replace(/^"(.*)"$/, "$1");
  }
  return out;
}

/**
 * Keys for the local stack: the environment first, then `.dev.vars`; otherwise a pair generated once
 * and kept in `keysFile` so they stay the same between runs.
 */
export function resolveDevKeys(
  env: Record<string, string | undefined>,
  devVars: Record<string, string>,
  keysFile: string,
): DevKeys {
  const full = env.SERVICE_API_KEYS || devVars.SERVICE_API_KEYS;
  const readOnly = env.SERVICE_READ_ONLY_API_KEYS || devVars.SERVICE_READ_ONLY_API_KEYS;
  if (full) return { full, readOnly: readOnly ?? "", generated: false };
  if (existsSync(keysFile)) {
    const kept = JSON.parse(readFileSync(keysFile, "utf8")) as { full: string; readOnly: string };
    return { full: kept.full, readOnly: readOnly || kept.readOnly, generated: true };
  }
  const keys = {
    full: `dev-full-${randomBytes(16).toString("hex")}`,
    readOnly: `dev-ro-${randomBytes(16).toString("hex")}`,
  };
  mkdirSync(dirname(keysFile), { recursive: true });
  writeFileSync(keysFile, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return { ...keys, readOnly: readOnly || keys.readOnly, generated: true };
}
