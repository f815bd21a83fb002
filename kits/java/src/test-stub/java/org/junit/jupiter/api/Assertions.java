package org.junit.jupiter.api;

import java.util.Objects;

/** STUB of the part of JUnit 5's {@code Assertions} the kit's tests use (see Test.java here). Never ship it. */
public final class Assertions {
  private Assertions() {}

  public static void assertEquals(Object expected, Object actual, String message) {
    if (!Objects.equals(expected, actual))
      throw new AssertionError(message + " ==> expected: <" + expected + "> but was: <" + actual + ">");
  }

  public static void assertEquals(Object expected, Object actual) {
    assertEquals(expected, actual, "");
  }

  public static void assertTrue(boolean condition, String message) {
    if (!condition) throw new AssertionError(message);
  }

  public static void assertTrue(boolean condition) {
    assertTrue(condition, "expected true");
  }

  public static <T extends Throwable> T assertThrows(Class<T> type, Executable body) {
    try {
      body.execute();
    } catch (Throwable t) {
      if (type.isInstance(t)) return type.cast(t);
      throw new AssertionError("expected " + type.getName() + " but " + t + " was thrown", t);
    }
    throw new AssertionError("expected " + type.getName() + " to be thrown");
  }

  /** JUnit's org.junit.jupiter.api.function.Executable, inlined here for the stub. */
  public interface Executable {
    void execute() throws Throwable;
  }
}
