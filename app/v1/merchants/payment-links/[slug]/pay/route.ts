// POST /v1/merchants/payment-links/{slug}/pay - public: start paying through a link; answers the transaction session.
import { routes } from "@/lib/http/routes";
import { linksEndpoints } from "@/lib/links/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(linksEndpoints.pay);
