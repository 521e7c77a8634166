"""The curated spec file's OEM records: each validates, states its conditions and source, and its
model_match finds the model strings those drives really report, and only its own.

SEEN holds model strings as smartctl, nvme-cli, lsblk or Windows report them, each found in public
hardware reports or logs; PATTERN holds strings of the same part-number pattern for capacities
whose report was not found (kept apart so the difference stays visible).
"""
from __future__ import annotations

import re

import pytest

from app.specs import catalog as vendor
from app.specs.model_match import normalize
from app.specs.record import VendorSpec

SEEN = {
    "SAMSUNG MZVL2512HCJQ-00B00": "samsung-pm9a1-512gb",
    "WDC PC SN720 SDAPNTW-256G-1014": "wd-pc-sn720-256gb",
    "WDC PC SN720 SDAQNTW-512G-1001": "wd-pc-sn720-512gb",
    "PC SN720 SDAPNTW-512G-1006": "wd-pc-sn720-512gb",
    "WDC PC SN730 SDBQNTY-256G-1001": "wd-pc-sn730-256gb",
    "WDC PC SN730 SDBPNTY-512G-1101": "wd-pc-sn730-512gb",
    "WDC PC SN730 SDBQNTY-512G-1001": "wd-pc-sn730-512gb",
    "WDC PC SN730 SDBPNTY-1T00-1101": "wd-pc-sn730-1tb",
    "WD PC SN740 SDDPNQD-256G-1006": "wd-pc-sn740-family",
    "WD PC SN740 SDDPNQD-512G-1002": "wd-pc-sn740-family",
    "WD PC SN740 SDDPNQD-1T00-1027": "wd-pc-sn740-family",
    "WD PC SN740 SDDPNQE-2T00-1102": "wd-pc-sn740-family",
    "WD PC SN5000S SDEQNSJ-1T00-1002": "wd-pc-sn5000s-family",
    "WD PC SN5000S SDEPMSJ-512G-1101": "wd-pc-sn5000s-family",
    "SAMSUNG MZVLB256HAHQ-00000": "samsung-pm981-256gb",
    "SAMSUNG MZVLB256HAHQ-000H1": "samsung-pm981-256gb",
    "Micron 2200S NVMe 256GB": "micron-2200-256gb",
    "Micron 2300 NVMe 1024GB": "micron-2300-1tb",
    "Micron 2400 MTFDKBA512QFM": "micron-2400-512gb",
    "Micron 2400 MTFDKBA1T0QFM": "micron-2400-1tb",
    "Micron 2550 MTFDKBK256TGE": "micron-2550-family",
    "Micron 2650 MTFDKBK256TGW": "micron-2650-256gb",
    "KBG50ZNS512G NVMe KIOXIA 512GB": "kioxia-bg5-family",
    "KBG50ZNV512G KIOXIA": "kioxia-bg5-family",
    "KXG80ZNV1T02 NVMe KIOXIA 1024GB": "kioxia-xg8-1tb",
    "INTEL SSDPEKNU512GZ": "intel-670p-512gb",
    "INTEL SSDPEKNU020TZ": "intel-670p-2tb",
    "CT1000P5SSD8": "crucial-p5-1tb",
    "SHGP31-1000GM-2": "skhynix-gold-p31-1tb",
}
PATTERN = {
    "WDC PC SN720 SDAQNTW-1T00-1001": "wd-pc-sn720-1tb",
    "WDC PC SN730 SDBPNTY-256G-1101": "wd-pc-sn730-256gb",
    "SAMSUNG MZVL2256HCHQ-00B00": "samsung-pm9a1-256gb",
    "SAMSUNG MZVLB256HBHQ-000L7": "samsung-pm981a-256gb",
    "Micron 2300 NVMe 256GB": "micron-2300-256gb",
    "Micron 2400 MTFDKBK2T0QFM": "micron-2400-2tb",
    "Micron 2500 MTFDKBK1T0QGN": "micron-2500-1tb",
    "Micron 2650 MTFDKBA1T0TGW": "micron-2650-1tb",
    "KBG40ZNS256G NVMe KIOXIA 256GB": "kioxia-bg4-family",
    "KXG60ZNV1T02 NVMe KIOXIA 1024GB": "kioxia-xg6-1tb",
    "INTEL SSDPEKNW010T8": "intel-660p-family",
    "INTEL SSDPEKNU010TZ": "intel-670p-1tb",
    "CT500P1SSD8": "crucial-p1-500gb",
    "CT500P2SSD8": "crucial-p2-family",
    "CT1000P3SSD8": "crucial-p3-1tb",
    "CT250P5SSD8": "crucial-p5-250gb",
    "CT500P5SSD8": "crucial-p5-500gb",
    "CT2000P5SSD8": "crucial-p5-2tb",
    "CT1000T500SSD8": "crucial-t500-1tb",
    "SHGP31-500GM-2": "skhynix-gold-p31-500gb",
    "SHGP31-2000GM-2": "skhynix-gold-p31-2tb",
}
#: Look-alikes that are other drives: no record may claim them.
OTHERS = ["CT1000P3PSSD8", "INTEL SSDPEKNW010T9", "Micron 2300 NVMe 512GB", "KBG30ZMV256G TOSHIBA",
          "WDC PC SN530 SDBPNPZ-512G-1006", "SAMSUNG MZVLB512HBJQ-000L7"]
CONDITION_KEYS = {"seq_bs", "seq_qd", "rand_bs", "rand_qd", "threads", "note"}


@pytest.fixture(autouse=True)
def _no_user_specs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "config"))


def _claimants(model: str, specs: list[dict]) -> list[str]:
    return [s["id"] for s in specs if VendorSpec.from_json(s).pattern_finds(normalize(model))]


def test_every_record_validates_and_says_where_each_value_comes_from():
    specs = vendor.load_specs()
    assert len(specs) >= 53 and len({s["id"] for s in specs}) == len(specs)
    for spec in specs:
        assert vendor.validate_spec(spec) == [], spec["id"]
        assert spec["interface"] and spec["source_kind"] in ("vendor", "datasheet", "secondary", "review")
        assert set(spec["test_conditions"]) >= CONDITION_KEYS, spec["id"]
        assert spec["notes"], spec["id"]
    oem = [s for s in specs if s.get("retrieved")]
    assert len(oem) >= 40
    for spec in oem:
        assert spec["source_url"].startswith(("http://", "https://")), spec["id"]
        values = [spec[k] for k, *_ in vendor.METRICS]
        assert any(v is not None for v in values), spec["id"]
        if None in values:  # an unknown value is null and the notes say why
            assert re.search(r"null|unknown|not (given|stated)", spec["notes"]), spec["id"]
        if spec["capacity_gb"] is None:  # a family's "up to" covers every capacity: said so
            assert "family" in spec["notes"], spec["id"]


@pytest.mark.parametrize("model, expected", sorted({**SEEN, **PATTERN}.items()))
def test_model_strings_find_their_record_and_only_it(model, expected):
    specs = vendor.load_specs()
    assert _claimants(model, specs) == [expected]
    assert vendor.match_spec(model, specs)["id"] == expected


@pytest.mark.parametrize("model", OTHERS)
def test_other_drives_are_claimed_by_no_record(model):
    assert _claimants(model, vendor.load_specs()) == []


def test_no_part_number_is_claimed_by_another_record():
    specs = vendor.load_specs()
    for spec in specs:
        for part in spec.get("part_numbers") or []:
            assert set(_claimants(part, specs)) <= {spec["id"]}, (spec["id"], part)
