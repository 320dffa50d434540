export default async function globalTeardown() {
  await globalThis.__FIREWATCH_INFRA__?.stop();
}
