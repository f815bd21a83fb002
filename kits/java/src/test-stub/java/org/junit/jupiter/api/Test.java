package org.junit.jupiter.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * STUB of JUnit 5's {@code @Test} (same name and package), only for building the kit's tests with the JDK alone
 * where Maven Central is unreachable (kits/build-all.mjs, kits/kits.test.mjs). Under Maven the real JUnit Jupiter
 * is used and this folder is not a source root. Never ship it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Test {}
