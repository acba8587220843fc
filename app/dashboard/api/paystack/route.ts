// PUT /dashboard/api/paystack {mode, secretKey} - connect the merchant's Paystack account (the API's schema and verb).
import { consoleRoutes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(merchantsEndpoints.connectPaystack);
