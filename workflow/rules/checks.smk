# Included last by the Snakefile, once every rule is defined: each rule's `script:` file exists, or the run stops
# naming the rule and its .smk file.


def check_rule_scripts():
    """Stop when the `script:` file of a rule does not exist, naming both (called below, once every rule is
    defined). Snakemake (9) fails on it only when it builds the DAG, with a FileNotFoundError
    traceback of about 80 lines that names neither the rule nor its .smk file."""
    for r in workflow.rules:
        script = str(r.script or "")
        # none, wildcards in it, or a remote module
        if not script or "{" in script or not r.basedir.is_local:
            continue
        path = Path(r.basedir.get_path_or_uri(secret_free=True)) / script
        if not path.is_file():
            raise ValueError(
                f"the script {script} of rule {r.name} ({r.snakefile}) does not exist ({path.resolve()}); "
                f"correct the path (relative to the directory of {Path(r.snakefile).name})"
            )


check_rule_scripts()
