/** A file's text, imported with Vite's `?raw` suffix (the README, read by readme-routes.test.ts). */
declare module "*?raw" {
  const text: string;
  export default text;
}
