export * from "./model";
export * from "./outcomes";
export * from "./senders";
