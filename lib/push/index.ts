export * from "./send";
export * from "./subscriptions";
export * from "./vapid";
