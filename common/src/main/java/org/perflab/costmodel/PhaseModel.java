package org.perflab.costmodel;

/**
 * The per-task phase equations of reference 000 (§2), with its corrections (§2.8, §7): dNumSpills is 0 when
 * spilling is off and floor(combined ÷ per spill) when on (E1, the printed conditions are inverted); the missing
 * sort-manager spill cost (38) is eq. (25) with the compute output and tShuffleSCW; x·log2(x) is 0 for x ≤ 1 (E13);
 * a bypass-merge-sort write has no spill phase; a hash-manager spill file uses the spill compression ratio (E12).
 * Memory per task comes from {@link CostConfig#spillBufferBytes()} (legacy eq. 19 or the unified manager). Units:
 * bytes, records, ns.
 */
public final class PhaseModel {
  private final CostConfig config;
  private final CostStats cs;
  private final SerializerCosts ser;
  private final Composite composite;

  public PhaseModel(CostConfig config, ClusterStats stats) {
    this.config = config;
    this.cs = stats.costs();
    this.ser = stats.serializer(config.serializer());
    this.composite = Composite.of(config, stats);
  }

  public Composite composite() {
    return composite;
  }

  /** x·log2(x), 0 for x ≤ 1 (reference E13). */
  static double nLogN(double x) {
    return x <= 1 ? 0 : x * Math.log(x) / Math.log(2);
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  /** cReadPhaseTime, eq. (10): csHdfsReadCost × split bytes, ns. */
  public double readNs(double splitBytes) {
    return cs.hdfsReadNsPerByte() * splitBytes;
  }

  /** Eqs. (11)–(29) for a task of a {@code tasks}-task stage fed {@code intermBytes} / {@code intermRecs} in total. */
  public ShuffleReadEstimate shuffleRead(double intermBytes, double intermRecs, int tasks, ReadSide side,
      DataStats data) {
    boolean sort = side == ReadSide.SORT;
    DataStats ds = sort ? data.withoutReadCombine() : data;
    CostStats c = sort ? cs.withoutCombine() : cs;
    double each = intermBytes / tasks;
    double recs = intermRecs / tasks;
    double local = each / config.executors();
    double remote = each * (config.executors() - 1) / config.executors();
    CodecCosts sh = composite.shuffle();
    double fetch = local * cs.localReadNsPerByte() + remote * cs.networkNsPerByte()
        + each * (sh.uncompressNsPerByte() + ser.serdeNsPerByte() / sh.compressRatio());
    CodecCosts file = sort ? composite.shuffle() : composite.spill();
    double scw = sort ? composite.shuffleScwNsPerByte() : composite.spillScwNsPerByte();
    double rcs = sort ? composite.shuffleRcsNsPerByte() : composite.spillRcsNsPerByte();
    Counts n = counts(recs, ds.readCombRecsSel(), ds.readSpillPairWidth(), file);
    double spillNs = recs * c.spillCombineNsPerRecord() + nLogN(n.inMem) * c.sortNsPerRecord()
        + n.spills * n.buffer * scw;
    double mergeNs = n.spills * n.fileBytes * rcs + n.comb * log2(n.spills + 1) * c.sortNsPerRecord()
        + (n.spills != 0 ? n.comb * c.mergeCombineNsPerRecord() : 0);
    return new ShuffleReadEstimate(each, recs, local, remote, fetch, n.estimate(spillNs, mergeNs),
        n.comb * ds.readMergeRecsSel(), n.comb * ds.readSpillPairWidth() * ds.readMergeSizeSel());
  }

  /** Eqs. (30)–(33). */
  public ComputeEstimate compute(double inRecords, double inBytes, DataStats ds) {
    return new ComputeEstimate(inRecords, inBytes, inRecords * ds.computeRecsSel(), inBytes * ds.computeSizeSel(),
        inRecords * cs.computeNsPerRecord());
  }

  /** tBypassMergeSort, eq. (34): sort manager, no map-side combine, and at most the threshold reduce partitions. */
  public boolean bypass(boolean mapSideCombine, int nextTasks) {
    return config.shuffleManager() == ShuffleManager.SORT && !mapSideCombine
        && nextTasks <= config.bypassThreshold();
  }

  /** Eqs. (34)–(44) for a task whose Compute phase produced {@code out}, writing for {@code nextTasks} reducers. */
  public ShuffleWriteEstimate shuffleWrite(ComputeEstimate out, int nextTasks, boolean mapSideCombine,
      DataStats data) {
    DataStats ds = mapSideCombine ? data : data.withoutWriteCombine();
    CostStats c = mapSideCombine ? cs : cs.withoutCombine();
    double writeBytes = out.outBytes() * ds.writeCombSizeSel() * ds.writeMergeSizeSel() * ser.serializeRatio()
        * composite.shuffle().compressRatio();
    double writeRecs = out.outRecords() * ds.writeCombRecsSel() * ds.writeMergeRecsSel();
    boolean hash = config.shuffleManager() == ShuffleManager.HASH;
    if (hash && !mapSideCombine) {
      double ns = out.outRecords()
          * (c.partitionNsPerRecord() + out.outPairWidth() * composite.shuffleScwNsPerByte());
      SpillEstimate none = counts(out.outRecords(), 1, ds.writeSpillPairWidth(), composite.shuffle())
          .none(out.outRecords(), ns);
      return new ShuffleWriteEstimate(false, none, ns, writeBytes, writeRecs);
    }
    boolean bypass = bypass(mapSideCombine, nextTasks);
    SpillEstimate spill = hash ? hashSpill(out, ds, c) : sortSpill(out, bypass, ds, c);
    return new ShuffleWriteEstimate(bypass, spill, spill.totalNs(), writeBytes, writeRecs);
  }

  /** Sort manager: reconstructed (38) for the spill and (39) for the merge; (39)'s bypass branch has no spill. */
  private SpillEstimate sortSpill(ComputeEstimate out, boolean bypass, DataStats ds, CostStats c) {
    Counts n = counts(out.outRecords(), ds.writeCombRecsSel(), ds.writeSpillPairWidth(), composite.shuffle());
    if (bypass) {
      double ns = out.outRecords() * ds.writeSpillPairWidth() * (cs.localReadNsPerByte() + cs.localWriteNsPerByte());
      return n.none(n.comb, ns);
    }
    double scw = composite.shuffleScwNsPerByte();
    double spillNs = out.outRecords() * c.spillCombineNsPerRecord() + nLogN(n.inMem) * c.sortNsPerRecord()
        + n.spills * n.buffer * scw;
    double mergeNs = n.spills * n.fileBytes * composite.shuffleRcsNsPerByte() + n.comb * (log2(n.spills + 1)
        * c.sortNsPerRecord() + (n.spills != 0 ? c.mergeCombineNsPerRecord() : 0)
        + ds.writeSpillPairWidth() * ds.writeMergeSizeSel() * scw);
    return n.estimate(spillNs, mergeNs);
  }

  /** Hash manager with map-side combine: eqs. (40) and (41); spill files use the spill codec settings. */
  private SpillEstimate hashSpill(ComputeEstimate out, DataStats ds, CostStats c) {
    Counts n = counts(out.outRecords(), ds.writeCombRecsSel(), ds.writeSpillPairWidth(), composite.spill());
    double spillNs = out.outRecords() * c.spillCombineNsPerRecord()
        + n.spills * nLogN(n.perSpill) * c.sortNsPerRecord() + nLogN(n.inMem) * c.sortNsPerRecord()
        + n.spills * n.buffer * composite.spillScwNsPerByte();
    double mergeNs = n.spills * n.fileBytes * composite.spillRcsNsPerByte() + n.comb * (log2(n.spills + 1)
        * c.sortNsPerRecord() + (n.spills != 0 ? c.mergeCombineNsPerRecord() : 0)
        + ds.writeMergeRecsSel() * c.partitionNsPerRecord()
        + ds.writeSpillPairWidth() * ds.writeMergeSizeSel() * composite.shuffleScwNsPerByte());
    return n.estimate(spillNs, mergeNs);
  }

  /** cFuncPhaseTime, eq. (45): compute output bytes × csNetworkCost, ns. */
  public double funcNs(ComputeEstimate out) {
    return out.outBytes() * cs.networkNsPerByte();
  }

  /** One task of {@code stage}, which reads {@code intermBytes} / {@code intermRecs} from its shuffle parents. */
  public TaskEstimate task(StageSpec stage, double intermBytes, double intermRecs, int nextTasks) {
    double readNs = readNs(stage.splitBytes());
    double inRecs = stage.splitBytes() / stage.data().readInPairWidth();
    double inBytes = stage.splitBytes();
    ShuffleReadEstimate sr = null;
    if (stage.readsShuffle()) {
      sr = shuffleRead(intermBytes, intermRecs, stage.tasks(), stage.readSide(), stage.data());
      inRecs += sr.computeInRecords();
      inBytes += sr.computeInBytes();
    }
    ComputeEstimate comp = compute(inRecs, inBytes, stage.data());
    ShuffleWriteEstimate sw = stage.shuffleWrite()
        ? shuffleWrite(comp, nextTasks, stage.mapSideCombine(), stage.data()) : null;
    double func = stage.shuffleWrite() ? 0 : funcNs(comp);
    return new TaskEstimate(readNs, sr, comp, sw, func, cs.setupNs(), cs.cleanupNs());
  }

  /** The spill counts shared by all spill/merge equations: (20)–(24) and (35)–(37). */
  private Counts counts(double fedRecords, double combSel, double width, CodecCosts file) {
    double buffer = config.spillBufferBytes();
    double perSpill = buffer / width;
    double comb = fedRecords * combSel;
    long spills = config.spill() ? (long) Math.floor(comb / perSpill) : 0L;
    double inMem = comb - perSpill * spills;
    double fileBytes = buffer * ser.serializeRatio() * file.compressRatio();
    return new Counts(buffer, perSpill, comb, spills, inMem, fileBytes);
  }

  private record Counts(double buffer, double perSpill, double comb, long spills, double inMem, double fileBytes) {
    SpillEstimate estimate(double spillNs, double mergeNs) {
      return new SpillEstimate(buffer, perSpill, comb, spills, inMem, fileBytes, spillNs, mergeNs);
    }

    /** No buffering (bypass, hash without combine): nothing spills; the write costs {@code mergeNs}. */
    SpillEstimate none(double records, double mergeNs) {
      return new SpillEstimate(buffer, perSpill, comb, 0, records, fileBytes, 0, mergeNs);
    }
  }
}
