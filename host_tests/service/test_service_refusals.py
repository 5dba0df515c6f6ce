"""One line for every refusal, through the real mpremote on the simulator: arguments a call does not take, a bad
selftest(root), an unknown configuration key (this game's keys listed), journal(n) beyond a page (from_seq pages
on); and a new table's first journal entry is its factory set-up, not a reconfiguration."""


def call(mpremote, sim, expr):
    code, out = mpremote(sim.pty, "resume", "exec", "import service\nprint(service.%s)" % expr)
    assert code == 0, out
    return out.rstrip("\n")


def test_refusals_are_one_line_each(start_sim, mpremote, dealer):
    sim = start_sim("fantan")
    for expr, starts, has in (("meters(1)", "REFUSED: meters(): ", "positional"),
                              ("status(verbose=True)", "REFUSED: status(): ", "verbose"),
                              ("selftest('nowhere')", "REFUSED: cannot read nowhere/fwmanifest.json", "deployed"),
                              ("selftest(5)", "REFUSED: root must be the folder", "str"),
                              ("journal(201)", "REFUSED: n must be an integer 1..200", "from_seq=SEQ"),
                              ("journal(5, from_seq=0)", "REFUSED: from_seq must be an integer", "1.."),
                              ("verify('xyz')", "REFUSED: verify: the seed", "even count")):
        out = call(mpremote, sim, expr)
        assert "\n" not in out and out.startswith(starts) and has in out, (expr, out)
    dealer.key(sim)
    out = call(mpremote, sim, "configure(colour=1)")
    assert "\n" not in out and out.startswith("REFUSED: unknown configuration key 'colour' (fantan's keys: "), out
    # this game's keys, not every game's: no jackpot amount on a fan-tan table
    assert "history_len" in out and "fixed_" not in out and "shake_ms" not in out, out


def test_a_new_tables_first_entry_is_its_factory_set_up_and_the_journal_pages(start_sim, mpremote, dealer):
    sim = start_sim("fantan")
    out = call(mpremote, sim, "journal(1, from_seq=1)")
    lines = out.splitlines()
    assert lines[0] == "journal (1 from #1 of 2)", out
    assert lines[1].strip() == "#1 round 0 factory_setup game 'fantan'", out
    assert lines[2].strip() == "next page: journal(1, from_seq=2)", out
    assert call(mpremote, sim, "journal(1, from_seq=2)").splitlines()[1].strip().startswith("#2 round 1.1 boot")
    dealer.key(sim)
    out = call(mpremote, sim, "configure(history_len=30)")
    assert "history_len = 30 (now)" in out, out
    out = call(mpremote, sim, "journal(200)")
    assert "config history_len 20->30" in out and out.count("factory_setup") == 1, out
    seq = int(out.splitlines()[0].split(" of ")[1].rstrip(")"))
    out = call(mpremote, sim, "journal(5, from_seq=%d)" % seq)  # the last entry alone, no next page
    assert out.splitlines()[0] == "journal (1 from #%d of %d)" % (seq, seq) and "next page" not in out, out
    out = call(mpremote, sim, "journal(5, from_seq=%d)" % (seq + 1))
    assert "no entry from #%d on" % (seq + 1) in out, out
