# The end-to-end private mode (privanomaly.privacy; beyond both papers): the price of honest tuning - the
# paper's tuning on every record vs a public split vs private selection (exponential mechanism), composed by
# one accountant - per dataset and total eps, one job per paper. Include after paper_a.smk and paper_b.smk
# (it reads their dataset sets). Its tables are catalogue items of paper A and B (workflow/report/catalogue.yaml).
from privanomaly.privacy import price as _price


rule privacy_price:
    input:
        data=lambda wc: expand(
            f"{RESULTS}/data/{{d}}.parquet", d=_price.datasets_of(wc.paper, PLAN_SETS)
        ),
        provenance=lambda wc: expand(
            f"{RESULTS}/data/{{d}}.json", d=_price.datasets_of(wc.paper, PLAN_SETS)
        ),
    output:
        csv=report(
            f"{RESULTS}/privacy/price_{{paper}}.csv",
            caption="../report/privacy_price.rst",
            category="Privacy audit",
            subcategory="Price of honest tuning, paper {paper}",
        ),
        md=f"{RESULTS}/privacy/price_{{paper}}.md",
    log:
        f"{LOGS}/privacy_price/{{paper}}.log",
    benchmark:
        f"{BENCH}/privacy_price/{{paper}}.tsv"
    wildcard_constraints:
        paper="A|B",
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        paper=lambda wc: wc.paper,
        datasets=lambda wc: _price.datasets_of(wc.paper, PLAN_SETS),
        privacy=config["privacy"],
        settings=lambda wc: _price.paper_settings(wc.paper, config),
    script:
        "../../scripts/privacy_price.py"
