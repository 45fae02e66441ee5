package org.perflab.sim;

/**
 * The event calendar: a binary min-heap of event times with an int payload each, in parallel primitive arrays so the
 * simulation loop never boxes. Ties pop in an unspecified but deterministic order.
 */
final class EventHeap {
  private double[] times;
  private int[] payloads;
  private int size;

  EventHeap(int capacity) {
    times = new double[Math.max(2, capacity)];
    payloads = new int[times.length];
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  double topTime() {
    return times[0];
  }

  int topPayload() {
    return payloads[0];
  }

  void push(double time, int payload) {
    if (size == times.length) {
      times = java.util.Arrays.copyOf(times, size * 2);
      payloads = java.util.Arrays.copyOf(payloads, size * 2);
    }
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (times[parent] <= time) {
        break;
      }
      times[i] = times[parent];
      payloads[i] = payloads[parent];
      i = parent;
    }
    times[i] = time;
    payloads[i] = payload;
  }

  /** Removes the earliest event. */
  void pop() {
    int last = --size;
    if (last > 0) {
      siftDown(times[last], payloads[last], last);
    }
  }

  /** Removes the earliest event and adds another in one pass (cheaper than pop then push). */
  void replaceTop(double time, int payload) {
    siftDown(time, payload, size);
  }

  private void siftDown(double time, int payload, int n) {
    int i = 0;
    int half = n >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < n && times[right] < times[child]) {
        child = right;
      }
      if (time <= times[child]) {
        break;
      }
      times[i] = times[child];
      payloads[i] = payloads[child];
      i = child;
    }
    times[i] = time;
    payloads[i] = payload;
  }
}
