# The end-to-end private mode (beyond both papers): the price of honest tuning - the paper's tuning on every
# record vs a public split vs private selection (config privacy.selection_methods), composed by one accountant -
# per dataset and total eps, one job per paper (privanomaly.price.tuning). Its tables are catalogue items of
# paper A and B (workflow/report/catalogue.yaml).


rule privacy_price:
    """Price of honest tuning of one paper: accuracy under the paper's tuning vs end-to-end private, per dataset and eps."""
    input:
        data=get_price_tables,
        provenance=get_price_provenance,
        raw=get_price_raw,
        raw_provenance=get_price_raw_provenance,
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
    group:
        "data"
    conda:
        "../../envs/privanomaly.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        library=library_code("privacy_price"),
        paper=lambda wc: wc.paper,
        datasets=get_price_datasets,
        privacy=config["privacy"],
        settings=get_price_settings,
    script:
        "../../scripts/privacy_price.py"
