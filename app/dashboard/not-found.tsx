import Link from "next/link";
import { linkClass } from "./_components/styles";

/** An unknown console page, or another merchant's payment or link: nothing to show. */
export default function ConsoleNotFound() {
  return (
    <main className="mx-auto max-w-md space-y-4 px-4 py-16">
      <h1 className="text-2xl font-bold tracking-tight">Not found</h1>
      <p className="text-sm text-slate-700">There is nothing here, or it belongs to another account.</p>
      <Link href="/dashboard" className={linkClass}>
        Back to the overview
      </Link>
    </main>
  );
}
