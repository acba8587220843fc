// GET /v1/customers/{code} - one customer with its saved cards; PATCH - its name, phone, metadata (secret key).
import { customersEndpoints } from "@/lib/customers/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  customersEndpoints.get,
  customersEndpoints.update,
);
