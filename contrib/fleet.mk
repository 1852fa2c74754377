# contrib/: recipes that plug cudawiz into the engines a fleet already
# runs (README "Fleets"). They are not built or installed; they ship in
# the tarball, and the packages gate tries them (tests/pkg/ansible-fleet.sh,
# tests/pkg/slurm-health.sh; contrib/prometheus's rule: tests/cli/docs-alert-rule.sh).
EXTRA_DIST += contrib/ansible/README.md contrib/ansible/cudawiz-fleet.yml \
	contrib/ansible/roles/cudawiz/defaults/main.yml \
	contrib/ansible/roles/cudawiz/vars/main.yml \
	contrib/ansible/roles/cudawiz/tasks/main.yml \
	contrib/ansible/roles/cudawiz/tasks/portable.yml \
	contrib/ansible/roles/cudawiz/tasks/doctor.yml \
	contrib/ansible/roles/cudawiz/tasks/fleet.yml
EXTRA_DIST += contrib/slurm/README.md contrib/slurm/cudawiz-fleet.sbatch \
	contrib/slurm/cudawiz-healthcheck
EXTRA_DIST += contrib/prometheus/cudawiz-alerts.yml
