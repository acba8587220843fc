// POST /dashboard/api/paystack/disconnect {mode} - forget the merchant's Paystack key of a mode.
import { consoleRoutes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(
  merchantsEndpoints.disconnectPaystack,
);
