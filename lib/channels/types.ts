/** The channel sender contract lives in the shared vocabulary (lib/delivery), below the transports and the domain. */
export type { ChannelResult, ChannelSender, SendOptions, SubscriptionDelivery } from "../delivery";
