"""The steppers' controls at 1280 px (and 1400 px), as a designer sees them: no control's box
overlaps another's, none runs past the output area (cut off at its right edge), and every
dropdown shows its whole choice.

A scratch notebook beside the others holds the Fairy Meat combat stepper (its weapon
dropdowns, each a long choice such as "Mushroom Helmet (+1 card, +0 to target, 1 attack)")
and the Durak battle stepper (its *Example file* dropdown, whose longest file name was cut
to ``durak_counterattack_chain.yam``).
"""

from __future__ import annotations

import pytest

from .laptop import close_notebook, laptop_context, open_notebook, write_scratch_notebook
from .notebook_page import cut_off_labels, viewport_width

NOTEBOOK = "stepper_layout.ipynb"
FM_STEPPER = 'fm = combat_stepper(example="dizzytwig_v_sparklespaz.yaml")'
DB_STEPPER = 'db = battle_stepper(example="durak_counterattack_chain.yaml")'
CELLS = [
    f"from toolkit.fairy_meat.widgets import combat_stepper\n\n{FM_STEPPER}\nfm",
    f"from toolkit.durak_battle.widgets import battle_stepper\n\n{DB_STEPPER}\ndb",
]

#: Every visible control of a region (a labelled slider, dropdown, text box, checkbox, toggle
#: bar, button): ``[its words, left, top, right, bottom]``, the controls inside another left out.
CONTROL_BOXES = """(el) => {
  const selector = '.widget-inline-hbox, .widget-checkbox, .widget-toggle-buttons, .widget-button';
  const all = Array.from(el.querySelectorAll(selector)).filter(b => b.offsetParent !== null);
  return all.filter(b => !all.some(o => o !== b && o.contains(b))).map(b => {
    const r = b.getBoundingClientRect();
    const select = b.querySelector('select');
    const words = (b.querySelector('.widget-label')?.innerText || '') + ' ' +
      (select ? select.options[select.selectedIndex]?.text || '' : b.innerText);
    return [words.trim().slice(0, 60), r.left, r.top, r.right, r.bottom];
  });
}"""

#: The controls whose box runs past the right edge of the output area that shows them.
PAST_THE_EDGE = """(el) => {
  const edge = el.getBoundingClientRect().right;
  const selector = '.widget-inline-hbox, .widget-checkbox, .widget-toggle-buttons, .widget-button, select';
  return Array.from(el.querySelectorAll(selector)).filter(b => b.offsetParent !== null)
    .filter(b => b.getBoundingClientRect().right > edge + 1)
    .map(b => (b.innerText || b.options?.[b.selectedIndex]?.text || '').trim().slice(0, 60) + ': ' +
         Math.round(b.getBoundingClientRect().right - edge) + ' px past the edge');
}"""


def overlaps(boxes: list[list]) -> list[str]:
    """Each pair of boxes that overlap by more than a pixel each way, with the overlap's width."""
    found = []
    for i, (a, al, at, ar, ab) in enumerate(boxes):
        for b, bl, bt, br, bb in boxes[i + 1 :]:
            wide, high = min(ar, br) - max(al, bl), min(ab, bb) - max(at, bt)
            if wide > 1 and high > 1:
                found.append(f"{a!r} and {b!r}: {wide:.0f} px")
    return found


@pytest.fixture(scope="module")
def narrow(chromium):
    yield from laptop_context(chromium)


@pytest.fixture(scope="module")
def steppers(narrow, lab, timings):
    write_scratch_notebook(lab, NOTEBOOK, CELLS)
    nb, console = open_notebook(narrow, lab, NOTEBOOK, timings, NOTEBOOK)
    yield nb, console
    close_notebook(nb)


@pytest.mark.parametrize("width", [1280, 1400])
@pytest.mark.parametrize("code", [FM_STEPPER, DB_STEPPER])
def test_no_control_overlaps_another_or_is_cut_off(steppers, code, width):
    nb, console = steppers
    with viewport_width(nb.page, width):
        region = nb.output(code)
        boxes = region.evaluate(CONTROL_BOXES)
        assert len(boxes) > 10, boxes  # the setup's controls are there
        assert overlaps(boxes) == []
        assert region.evaluate(PAST_THE_EDGE) == []
        assert cut_off_labels(region) == []  # the weapons and the example file shown whole
    assert console.errors == []
