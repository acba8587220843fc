/** Shown while a console page loads. */
export default function Loading() {
  return (
    <p role="status" className="text-sm text-slate-700">
      Loading…
    </p>
  );
}
