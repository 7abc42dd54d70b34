"""What a rule system supplies to the generic tools, as the types its registry hooks
return (:mod:`toolkit.systems`): headline tables for the rule-change report
(:mod:`.headline`), situations for the rule-book (:mod:`.situation`) and calculators for
sweeps and tuning (:mod:`.calculator`). A core layer: a system's package imports these,
never the front-ends that consume them.
"""
