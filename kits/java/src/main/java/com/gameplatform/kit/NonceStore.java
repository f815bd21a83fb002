package com.gameplatform.kit;

/**
 * Where seen nonces are kept. {@code remember} records the nonce until {@code expiresAtEpochSeconds} and answers
 * false when it is already recorded and not expired (a replay). Must be atomic when several game server
 * instances share it (e.g. Redis {@code SET key 1 NX EX ttl}).
 */
public interface NonceStore {
  boolean remember(String nonce, long expiresAtEpochSeconds) throws Exception;
}
