package org.perflab.costmodel;

import org.perflab.errors.BadInputException;

/** The values of {@code spark.serializer}; Spark's default is {@link #JAVA}. */
public enum SerializerKind {
  JAVA("org.apache.spark.serializer.JavaSerializer"),
  KRYO("org.apache.spark.serializer.KryoSerializer");

  private final String className;

  SerializerKind(String className) {
    this.className = className;
  }

  /** The short name ({@code java}, {@code kryo}), as {@link #parse} takes it and PerfLab's tables write it. */
  public String shortName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The serializer class Spark's {@code spark.serializer} names. */
  public String className() {
    return className;
  }

  /** The serializer of a {@code spark.serializer} value: its class name, or java / kryo. */
  public static SerializerKind parse(String value) {
    for (SerializerKind s : values()) {
      if (s.className.equals(value) || s.name().equalsIgnoreCase(value)) {
        return s;
      }
    }
    throw new BadInputException("Cannot parse spark.serializer: unknown serializer (" + value + "; one of "
        + JAVA.className + ", " + KRYO.className + ")");
  }
}
