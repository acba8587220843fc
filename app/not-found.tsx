import type { Metadata } from "next";
import { NoticePage, noticeAction } from "@/components/ui/notice-page";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

/** Any address the app has no page for. */
export default function NotFound() {
  return (
    <NoticePage
      code="Error 404"
      title="Page not found"
      actions={
        <a href="/" className={noticeAction}>
          Go to the home page
        </a>
      }
    >
      <p>
        There is no page at this address. Check it for typing mistakes, or start again from the home page.
      </p>
      <p>
        Paying a business? Use the payment link or checkout button they gave you: each payment has its own
        address.
      </p>
    </NoticePage>
  );
}
