"""A RAM clear keeps the configuration unless the technician asks otherwise, and the configuration is exported and
re-applied (service.config_export(), configure(**exported)), through the real mpremote on the simulator."""


def run(mpremote, sim, script):
    code, out = mpremote(sim.pty, "resume", "exec", "import service\n" + script)
    assert code == 0, out
    return out


def test_the_configuration_survives_a_ram_clear_and_is_exported_and_re_applied(start_sim, mpremote, dealer):
    sim = start_sim("fantan")
    dealer.key(sim)
    out = run(mpremote, sim, "print(service.configure(history_len=30))\nprint(service.config_export())")
    assert out.splitlines()[-1] == "configure(game='fantan', history_len=30)", out
    # a plain clear: the configuration stays
    out = run(mpremote, sim, "print(service.ram_clear())\n"
                             "print(service.ram_clear(service.ram_clear().data['code']))\n"
                             "print(service.config_export())")
    assert "keep_config=False" in out and out.splitlines()[-1] == "configure(game='fantan', history_len=30)", out
    # asked to: the defaults, journalled with what was in force; the export puts it back
    out = run(mpremote, sim, "e = service.config_export()\n"
                             "print(service.ram_clear(service.ram_clear().data['code'], keep_config=False))\n"
                             "print(service.status())\nprint(repr(service.config_export()))\n"
                             "print(service.configure(**e))\nprint(service.config_export())\n"
                             "print(service.journal(8))")
    assert "configuration is back to its defaults (game sicbo)" in out, out
    assert "game sicbo, state idle" in out and "configure()" in out, out
    assert "game = 'fantan' (now)" in out and "history_len = 30 (now)" in out, out
    assert "configure(game='fantan', history_len=30)" in out.split("configure()")[1], out
    assert "config_reset (to the defaults; was game fantan)" in out or "config_reset to the defaults; was game fantan" in out, out
    assert "config game 'sicbo'->'fantan'" in out, out
    # a wrong value for the option: one line, nothing cleared
    out = run(mpremote, sim, "print(service.ram_clear(service.ram_clear().data['code'], keep_config='no'))")
    assert out.strip() == "REFUSED: keep_config must be True or False, got 'no'", out
    assert run(mpremote, sim, "print(service.config_export())").strip() == "configure(game='fantan', history_len=30)"
    dealer.key(sim, on=False)
    out = run(mpremote, sim, "print(service.configure(**{'history_len': 20}))")
    assert out.startswith("REFUSED: configure refused: the service key is off"), out
