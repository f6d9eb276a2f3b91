import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DOCS_SCRIPT_PATH } from "../../src/routes/docs";

/**
 * The static files of the docs Worker (workers/docs/wrangler.toml `[assets]`): the API reference's
 * script, so `/docs` renders with no network (offline, behind a proxy that blocks CDNs). Copied
 * from the installed @scalar/api-reference (a dev dependency: deploy from a checkout set up with
 * `npm ci`) into dist/assets/, never committed; beside it the pages written here
 * (workers/docs/public: the realtime example). Run by that Worker's build step on `wrangler
 * deploy`, and by the dev tooling.
 */

export function buildDocsAssets(root: string): string {
  const dir = join(root, "dist", "assets");
  const target = join(dir, DOCS_SCRIPT_PATH);
  // A direct dependency, so installed at the top of node_modules (the package exports no path to its browser bundle).
  const source = join(root, "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");
  if (!existsSync(source)) throw new Error(`${source} is missing: run npm ci`);
  // Copied every time (a few milliseconds): the installed version is always the one served.
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(source, target);
  cpSync(join(root, "workers", "docs", "public"), dir, { recursive: true });
  return dir;
}

/** The docs Worker's name and date, from workers/docs/wrangler.toml. */
export function docsWorkerConfig(root: string): { name: string; compatibilityDate: string } {
  const config = readFileSync(join(root, "workers", "docs", "wrangler.toml"), "utf8");
  const field = (name: string) => {
    const value = new RegExp(`^${name} = "(.+)"$`, "m").exec(config)?.[1];
    if (!value) throw new Error(`workers/docs/wrangler.toml: no ${name}`);
    return value;
  };
  return { name: field("name"), compatibilityDate: field("compatibility_date") };
}

/**
 * The docs Worker as Miniflare options, for runtimes that `wrangler dev` does not start (the test
 * pool, the benchmarks' own), its files built here. A Worker of static files only: the script is
 * empty and the assets router answers alone.
 */
export function docsWorkerOptions(root: string) {
  return {
    ...docsWorkerConfig(root),
    modules: true,
    script: "export default {}",
    assets: { directory: buildDocsAssets(root), routerConfig: { has_user_worker: false } },
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = buildDocsAssets(resolve(dirname(fileURLToPath(import.meta.url)), "..", ".."));
  console.log(`docs assets in ${dir}`);
}
