package com.gameplatform.kit;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongSupplier;

/** Nonces in this process's memory: enough for one game server instance. */
public final class MemoryNonceStore implements NonceStore {
  private final Map<String, Long> seen = new HashMap<>();
  private final int maxEntries;
  private final LongSupplier nowSeconds;

  public MemoryNonceStore() {
    this(100_000, () -> System.currentTimeMillis() / 1000);
  }

  public MemoryNonceStore(int maxEntries, LongSupplier nowSeconds) {
    this.maxEntries = maxEntries;
    this.nowSeconds = nowSeconds;
  }

  @Override
  public synchronized boolean remember(String nonce, long expiresAt) {
    long now = nowSeconds.getAsLong();
    Long until = seen.get(nonce);
    if (until != null && until > now) return false;
    if (seen.size() >= maxEntries) {
      Iterator<Map.Entry<String, Long>> it = seen.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, Long> e = it.next();
        if (e.getValue() <= now || seen.size() >= maxEntries) it.remove();
      }
    }
    seen.put(nonce, expiresAt);
    return true;
  }
}
