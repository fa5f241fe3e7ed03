import type { CallOptions, ClientContext, RequestOptions } from "../client-context.js";
import { listQuery, type Page, type PageOptions } from "../lists.js";
import type { Webhook, WebhookCreate, WebhookDelivery } from "../types.js";

export interface WebhooksMethods {
  /**
   * Asks to be told of changes and failed scheduled runs (`events`; of one plan's with
   * `plan_id`) by a signed POST to `url`. The answer holds the webhook's `secret`, this once:
   * keep it to check each delivery's `Benchwright-Signature`.
   *
   * @example
   * const hook = await bw.createWebhook({ url: "https://hooks.example.com/benchwright", events: ["regression", "improvement"] });
   * saveSecret(hook.secret);
   */
  createWebhook(body: WebhookCreate, options?: CallOptions): Promise<Webhook>;
  /** An admin's (a webhook's URL may hold the receiver's credential): the webhooks, oldest first, without their secrets. */
  listWebhooks(options?: CallOptions): Promise<Webhook[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listWebhooksPage(options?: CallOptions & PageOptions): Promise<Page<Webhook>>;
  /** An admin's: one webhook, without its secret. */
  getWebhook(webhookId: string, options?: CallOptions): Promise<Webhook>;
  /** Deletes the webhook and its deliveries' records; what was not delivered yet is not. */
  deleteWebhook(webhookId: string, options?: RequestOptions): Promise<void>;
  /** An admin's: the webhook's deliveries and how each went (state, attempts, last status and error), newest first. */
  listWebhookDeliveries(webhookId: string, options?: CallOptions): Promise<WebhookDelivery[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listWebhookDeliveriesPage(webhookId: string, options?: CallOptions & PageOptions): Promise<Page<WebhookDelivery>>;
}

export function webhooksMethods({ raw, unwrap, init, listInit, fieldsHeader, readPage, itemsOf }: ClientContext): WebhooksMethods {
  const webhooksPage = (o?: CallOptions & PageOptions) =>
    readPage<Webhook>(raw.GET("/webhooks/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  const webhookDeliveriesPage = (webhookId: string, o?: CallOptions & PageOptions) =>
    readPage<WebhookDelivery>(
      raw.GET("/webhooks/{webhook_id}/deliveries", {
        params: { path: { webhook_id: webhookId }, header: fieldsHeader(o), query: listQuery(o) },
        ...listInit(o),
      }),
    );
  return {
    createWebhook: (body, o) => unwrap(raw.POST("/webhooks/", { body, params: { header: fieldsHeader(o) }, ...init(o) })),
    listWebhooks: (o) => itemsOf(webhooksPage(o)),
    listWebhooksPage: webhooksPage,
    getWebhook: (webhookId, o) =>
      unwrap(raw.GET("/webhooks/{webhook_id}", { params: { path: { webhook_id: webhookId }, header: fieldsHeader(o) }, ...init(o) })),
    deleteWebhook: async (webhookId, o) => {
      await unwrap(raw.DELETE("/webhooks/{webhook_id}", { params: { path: { webhook_id: webhookId } }, ...init(o) }));
    },
    listWebhookDeliveries: (webhookId, o) => itemsOf(webhookDeliveriesPage(webhookId, o)),
    listWebhookDeliveriesPage: webhookDeliveriesPage,
  };
}
