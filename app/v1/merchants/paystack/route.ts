// GET, PUT /v1/merchants/paystack - the merchant's own Paystack account of a mode: see it, connect or replace its key.
import { routes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  merchantsEndpoints.getPaystack,
  merchantsEndpoints.connectPaystack,
);
