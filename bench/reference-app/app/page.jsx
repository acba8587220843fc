import { Counter } from "./counter";

// Dynamic like the checkout (rendered per request), so both pay for a server render.
export const dynamic = "force-dynamic";

export default function Page() {
  return (
    <main style={{ maxWidth: "28rem", margin: "0 auto", padding: "2rem 1rem" }}>
      <h1>Reference Store</h1>
      <p>You pay NGN 5,175.00, including a NGN 175.00 card fee.</p>
      <Counter />
    </main>
  );
}
