"""Temperature sources (hwmon on a fake sysfs tree, smartctl through the fake on PATH), the
order they are tried in and the reason when none works; the sampler thread; throttle flags."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from app.drive import thermal
from app.drive.throttle import throttle_flags, throughput_drop
from jobs.drive.sampler import MIN_INTERVAL_S, TemperatureSampler
from tests.fakes import fake_sysfs

from conftest import (
    FIXTURES,  # noqa: E402
    REPO,  # noqa: E402
)

FAKES = REPO / "tests" / "fakes"
NVME_TEXT = "smartctl-7.2-linux-nvme-samsung970evoplus-a-de_locale.txt"


@pytest.fixture
def fake_smartctl(monkeypatch, tmp_path):
    """The fake smartctl first on PATH; returns the file it logs its calls to."""
    monkeypatch.setenv("PATH", f"{FAKES}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("SSD_PROFILER_FIXTURES", str(FIXTURES))
    monkeypatch.delenv("FAKE_SMARTCTL_FIXTURE", raising=False)
    monkeypatch.delenv("FAKE_SMARTCTL_JSON", raising=False)
    calls = tmp_path / "smartctl-calls.log"
    monkeypatch.setenv("FAKE_SMARTCTL_LOG", str(calls))
    return calls


def n_calls(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


# -- hwmon --------------------------------------------------------------------------------------
@pytest.mark.parametrize("multipath", [False, True])
def test_hwmon_nvme_controller(tmp_path, multipath):
    root = fake_sysfs(tmp_path, multipath=multipath)
    source = thermal.HwmonSource("nvme0n1", root)
    assert source.read() == pytest.approx(41.85)
    assert source.thresholds() == {"warning_c": pytest.approx(84.85), "critical_c": pytest.approx(88.85)}
    assert "hwmon3" in source.detail


def test_hwmon_drivetemp_and_missing(tmp_path):
    root = fake_sysfs(tmp_path)
    assert thermal.HwmonSource("sda", root).read() == 35.0
    missing = thermal.HwmonSource("vda", root)
    assert missing.path is None and "no NVMe or drivetemp hwmon" in missing.reason
    with pytest.raises(thermal.TemperatureUnavailable):
        missing.read()


def test_hwmon_unreadable_value(tmp_path):
    root = fake_sysfs(tmp_path)
    (root / "class" / "nvme" / "nvme0" / "hwmon3" / "temp1_input").write_text("garbage\n")
    with pytest.raises(thermal.TemperatureUnavailable, match="cannot read"):
        thermal.HwmonSource("nvme0n1", root).read()


# -- choosing a source --------------------------------------------------------------------------
@pytest.mark.skipif(not os.uname().sysname == "Linux", reason="hwmon is Linux only")
def test_hwmon_is_preferred_over_smartctl(tmp_path, fake_smartctl, monkeypatch):
    monkeypatch.setenv("FAKE_SMARTCTL_FIXTURE", NVME_TEXT)
    root = fake_sysfs(tmp_path / "sys")
    volume = {"disk_name": "nvme0n1", "smart_device": "/dev/nvme0", "bus": "NVMe"}
    source, notes = thermal.find_temperature_source(volume, sysfs_root=root)
    assert isinstance(source, thermal.HwmonSource) and notes == ""
    assert n_calls(fake_smartctl) == 0  # no process when sysfs has it


@pytest.mark.skipif(not os.uname().sysname == "Linux", reason="hwmon is Linux only")
def test_smartctl_when_no_hwmon(tmp_path, fake_smartctl, monkeypatch):
    monkeypatch.setenv("FAKE_SMARTCTL_FIXTURE", NVME_TEXT)
    root = fake_sysfs(tmp_path / "sys", nvme_hwmon=False)
    volume = {"disk_name": "nvme0n1", "smart_device": "/dev/nvme0", "bus": "NVMe"}
    source, notes = thermal.find_temperature_source(volume, sysfs_root=root)
    assert isinstance(source, thermal.SmartctlSource) and "hwmon" in notes
    assert source.read() == 41.0 and source.last["warning_temp_time_min"] == 0
    assert "-j -A /dev/nvme0" in fake_smartctl.read_text()


def test_json_fixture_served_for_the_poll(tmp_path, fake_smartctl, monkeypatch):
    monkeypatch.setenv("FAKE_SMARTCTL_FIXTURE", "smartctl-7.0-linux-nvme-samsung970evo-mediaerrors-xall-json.json")
    source = thermal.SmartctlSource("/dev/nvme0")
    assert source.read() == 35.0


def test_unavailable_reason_on_a_virtual_disk(tmp_path, fake_smartctl):
    root = fake_sysfs(tmp_path / "sys")
    volume = {"disk_name": "vda", "smart_device": "/dev/vda", "bus": "virtual"}
    source, reason = thermal.find_temperature_source(volume, sysfs_root=root)
    assert source is None
    assert reason.startswith("temperature unavailable: virtual disk")
    assert "cannot detect the device type of /dev/vda" in reason


def test_unavailable_reason_without_smartctl(tmp_path, monkeypatch):
    root = fake_sysfs(tmp_path / "sys")
    volume = {"disk_name": "vda", "smart_device": "/dev/vda", "bus": "virtual"}
    source, reason = thermal.find_temperature_source(volume, sysfs_root=root,
                                                     smartctl=str(tmp_path / "missing-smartctl"))
    assert source is None and "install smartmontools" in reason


def test_real_machine_root_volume_reason():
    from app.drive.identity import volume_for
    volume = volume_for("/")
    source, reason = thermal.find_temperature_source(volume)
    assert source is not None or reason.startswith("temperature unavailable: ")


# -- sampler ------------------------------------------------------------------------------------
class FakeClock:
    """Virtual seconds for the sampler: ``wait`` moves time on at once instead of sleeping, so
    a loop covers seconds in milliseconds. At ``end`` the clock stops moving: the sampler idles
    (``idle`` is set) until the test stops it, so the readings taken are exactly the ticks
    before ``end``, however loaded the machine is."""

    def __init__(self, end_s: float, start: float = 1_000.0):
        self.t, self.end, self.idle = start, start + end_s, threading.Event()

    def now(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt

    def wait(self, stop: threading.Event, timeout: float) -> bool:
        if stop.is_set():
            return True
        if self.t + timeout > self.end:
            self.t = max(self.t, self.end)
            self.idle.set()
            return stop.wait(10.0)
        self.t += timeout
        return False

    def run(self, sampler: TemperatureSampler, interval_s: float) -> None:
        """Start ``sampler`` at t0 = now, let it run to ``end`` and stop it."""
        sampler.start(self.t, interval_s)
        assert self.idle.wait(10.0), "the sampler never reached the end of the fake clock"
        assert sampler.stop()


class CountingSource:
    def __init__(self, values=None, delay=0.0, fail_every=0, clock=None):
        self.n, self.values, self.delay, self.fail_every = 0, values, delay, fail_every
        self.clock = clock

    def read(self):
        self.n += 1
        if self.delay:
            self.clock.advance(self.delay)
        if self.fail_every and self.n % self.fail_every == 0:
            raise thermal.TemperatureUnavailable("sensor busy")
        return 40.0 + self.n if self.values is None else self.values[min(self.n - 1, len(self.values) - 1)]


def test_sampler_ticks_aligned_to_t0():
    clock = FakeClock(end_s=1.35)
    sampler = TemperatureSampler(CountingSource(), clock=clock)
    clock.run(sampler, 0.5)
    readings = sampler.drain()
    assert readings == [(0.0, 41.0), (0.5, 42.0), (1.0, 43.0)]
    assert sampler.drain() == [] and sampler.latest() == readings[-1]
    assert sampler.temperature_at(0.7) == 42.0 and sampler.temperature_at(10.0) is None
    assert sampler.readings(0.4, 1.1) == readings[1:]


def test_sampler_interval_floor_and_double_start():
    clock = FakeClock(end_s=0.0)
    sampler = TemperatureSampler(CountingSource(), interval_s=0.1, clock=clock)
    assert sampler.interval_s == MIN_INTERVAL_S
    sampler.start(clock.now(), interval_s=0.01)
    assert sampler.interval_s == MIN_INTERVAL_S
    with pytest.raises(RuntimeError):
        sampler.start(clock.now())
    assert sampler.stop()


def test_sampler_keeps_gaps_and_goes_on():
    clock = FakeClock(end_s=1.8)
    sampler = TemperatureSampler(CountingSource(fail_every=2), clock=clock)
    clock.run(sampler, 0.5)
    assert sampler.drain() == [(0.0, 41.0), (0.5, None), (1.0, 43.0), (1.5, None)]
    assert sampler.failures == 2 and sampler.last_error == "sensor busy"


def test_sampler_skips_the_ticks_a_slow_read_overran():
    """A 1.2 s read at 0.5 s ticks: the next read waits for the next tick still ahead instead of
    catching up in a burst; each reading is stamped at the middle of its read."""
    clock = FakeClock(end_s=2.9)
    sampler = TemperatureSampler(CountingSource(delay=1.2, clock=clock), clock=clock)
    clock.run(sampler, 0.5)
    assert sampler.drain() == [(0.6, 41.0), (2.1, 42.0)]


def test_sampler_stop_is_bounded_with_a_hung_read():
    """Real time: a read that hangs keeps the daemon thread, not the caller of stop()."""
    started, release = threading.Event(), threading.Event()

    class HungSource:
        def read(self) -> float:
            started.set()
            release.wait(10.0)
            return 40.0

    sampler = TemperatureSampler(HungSource())
    sampler.start(time.time(), 0.5)
    try:
        assert started.wait(5.0)
        begun = time.monotonic()
        assert sampler.stop(timeout=0.3) is False
        assert time.monotonic() - begun < 1.0
    finally:
        release.set()
    assert sampler.stop(timeout=5.0)


def test_sampler_with_fake_smartctl_one_reading_per_second(fake_smartctl, monkeypatch):
    monkeypatch.setenv("FAKE_SMARTCTL_FIXTURE", NVME_TEXT)
    clock = FakeClock(end_s=2.6)
    sampler = TemperatureSampler(thermal.SmartctlSource("/dev/vda"), clock=clock)
    clock.run(sampler, 1.0)
    readings = sampler.drain()
    assert readings == [(0.0, 41.0), (1.0, 41.0), (2.0, 41.0)]
    assert n_calls(fake_smartctl) == 3
    assert all(threading.current_thread() is not t for t in threading.enumerate() if t.name == "temperature-sampler")


# -- throttle flags -----------------------------------------------------------------------------
def samples(mbps, temps, dt=1.0):
    return [{"t_s": i * dt, "read_MBps": 0.0, "write_MBps": m, "temperature_c": c}
            for i, (m, c) in enumerate(zip(mbps, temps))]


def test_throttle_above_warning_threshold():
    flags = throttle_flags(samples([500] * 6, [60, 70, 80, 84, 83, 82]), warning_temp_c=84)
    assert flags["throttled"] is True and flags["signals"] == ["above_warning"]
    assert flags["max_temp_c"] == 84 and flags["warning_temp_c"] == 84


def test_throttle_warning_time_counter_rising_from_snapshots():
    before = {"warning_temp_c": 85, "warning_temp_time_min": 3, "critical_temp_time_min": 0}
    after = {"warning_temp_c": 85, "warning_temp_time_min": 5, "critical_temp_time_min": 0}
    flags = throttle_flags(samples([500] * 6, [50] * 6), None, before, after)
    assert flags["warning_time_rising"] is True and flags["warning_temp_time_delta_min"] == 2
    assert flags["above_warning"] is False and flags["throttled"] is True


def test_throttle_drop_while_temperature_rises():
    mbps = [100, 3000, 3000, 3000, 2900, 1500, 1400, 1400, 1300, 50]
    temps = [50, 55, 60, 65, 70, 74, 76, 77, 77, 77]
    flags = throttle_flags(samples(mbps, temps), warning_temp_c=None)
    assert flags["drop_with_temp_rise"] is True and flags["signals"] == ["drop_with_temp_rise"]
    drop = flags["throughput_drop"]
    assert drop["drop_pct"] >= 30 and drop["temp_to_c"] > drop["temp_from_c"]
    assert "no warning threshold known" in flags["notes"]


def test_no_flag_for_a_drop_at_constant_temperature_or_small_dip():
    slc_cliff = samples([3000] * 5 + [900] * 5, [45] * 10)
    assert throttle_flags(slc_cliff, 80)["throttled"] is False
    one_dip = samples([3000, 3000, 3000, 1000, 3000, 3000, 3000], [40, 41, 42, 43, 44, 45, 46])
    assert throughput_drop(one_dip) is None  # median-of-3 smoothing ignores a single dip


def test_throttle_with_sampler_readings_instead_of_sample_temperatures():
    engine = [{"t_s": float(i), "read_MBps": m, "write_MBps": 0.0}
              for i, m in enumerate([10, 2000, 2000, 2000, 1000, 1000, 1000, 10])]
    readings = [(i - 0.1, 60.0 + 3 * i) for i in range(8)]
    flags = throttle_flags(engine, 90, temperatures=readings)
    assert flags["drop_with_temp_rise"] is True and flags["above_warning"] is False


def test_throttle_unknown_without_any_data():
    flags = throttle_flags([], None, None, None)
    assert flags["throttled"] is None and flags["signals"] == []
    nvme_bit = throttle_flags([], None, None, {"critical_warning": 0x02})
    assert nvme_bit["critical_warning_temperature"] is True and nvme_bit["throttled"] is True
