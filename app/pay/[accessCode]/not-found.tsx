export default function CheckoutNotFound() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col justify-center px-4 py-12">
      <h1 className="text-2xl font-semibold text-slate-900">This payment link is not valid</h1>
      <p className="mt-2 text-slate-700">
        It may have expired, or the address may be incomplete. Go back to the business you were paying and
        start the payment again.
      </p>
    </main>
  );
}
