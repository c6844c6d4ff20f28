// Node resolves bare specifiers the way the page does: through index.html's import map, its /assets/
// addresses read as files of clients/web (node --import ./tests/web/register.mjs).
import { readFileSync } from "node:fs";

const WEB = new URL("../../clients/web/", import.meta.url);
const page = readFileSync(new URL("index.html", WEB), "utf8");
const { imports } = JSON.parse(page.match(/<script type="importmap">([\s\S]*?)<\/script>/)[1]);

export async function resolve(specifier, context, next) {
  if (specifier in imports) {
    return { url: new URL(imports[specifier].replace(/^\/assets\//, ""), WEB).href, shortCircuit: true };
  }
  return next(specifier, context);
}
