// GET /pay/return/paystack?reference= - the customer back from the bank's page: the charge checked, then the checkout.
import { returnFromPaystack } from "@/lib/checkout/return-from-paystack";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const location = await returnFromPaystack({ reference: url.searchParams.get("reference") });
  if (!location) {
    return new Response("This payment could not be found.", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  return new Response(null, {
    status: 303,
    headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}
