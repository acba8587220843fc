export default function LinkNotFound() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col justify-center px-4 py-12">
      <h1 className="text-2xl font-semibold text-slate-900">This payment link is not valid</h1>
      <p className="mt-2 text-slate-700">Check the address with the business that sent it to you.</p>
    </main>
  );
}
