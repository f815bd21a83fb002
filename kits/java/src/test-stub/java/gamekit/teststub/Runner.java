package gamekit.teststub;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * STUB runner: what Surefire does for the kit's JUnit 5 tests, with the JDK alone. Runs every {@code @Test} method of
 * the classes named on the command line on a fresh instance; prints each result; exits 1 when one fails.
 */
public final class Runner {
  public static void main(String[] args) throws Exception {
    int run = 0, failed = 0;
    for (String name : args) {
      Class<?> c = Class.forName(name);
      for (Method m : c.getDeclaredMethods()) {
        if (!m.isAnnotationPresent(Test.class)) continue;
        run++;
        Constructor<?> k = c.getDeclaredConstructor();
        k.setAccessible(true);
        m.setAccessible(true);
        try {
          m.invoke(k.newInstance());
          System.out.println("PASS " + c.getSimpleName() + "." + m.getName());
        } catch (InvocationTargetException e) {
          failed++;
          System.out.println("FAIL " + c.getSimpleName() + "." + m.getName() + ": " + e.getCause());
        }
      }
    }
    System.out.println("Tests run: " + run + ", Failures: " + failed);
    if (run == 0 || failed > 0) System.exit(1);
  }
}
