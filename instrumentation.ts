// Runs once when a server process starts: configuration check, migrations and demo seed (lib/boot.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { bootOrExit } = await import("./lib/boot");
    await bootOrExit();
  }
}
