import { copyFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DOCS_SCRIPT_PATH } from "../../src/routes/docs";

/**
 * The static assets the Worker serves itself (wrangler.toml `[assets]`): the API reference's
 * script, so `/docs` renders with no network (offline, behind a proxy that blocks CDNs). Copied
 * from the installed @scalar/api-reference into dist/assets/, never committed; run by wrangler's
 * build step on `wrangler dev` and `wrangler deploy`, and by the dev tooling and the tests.
 */

export function buildDocsAssets(root: string): string {
  const dir = join(root, "dist", "assets");
  const target = join(dir, DOCS_SCRIPT_PATH);
  // A direct dependency, so installed at the top of node_modules (the package exports no path to its browser bundle).
  const source = join(root, "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");
  if (!existsSync(source)) throw new Error(`${source} is missing: run npm ci`);
  // Copied again only when the installed version changed (a dev loop rebuilds on every start).
  if (!existsSync(target) || statSync(target).size !== statSync(source).size) {
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target);
  }
  return dir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = buildDocsAssets(resolve(dirname(fileURLToPath(import.meta.url)), "..", ".."));
  console.log(`docs assets in ${dir}`);
}
