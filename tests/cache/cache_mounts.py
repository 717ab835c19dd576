"""Mounting for the filesystem cases of check_cache.py: a small tmpfs (full) or one remounted
read-only, inside a mount namespace of the test's own, so nothing outlives the test.

Which `unshare` works depends on the machine, so each is tried on a probe mount:
  unshare -m                          root on an ordinary machine (private propagation);
  unshare -rm                         any user where unprivileged user namespaces are allowed;
  unshare -m --propagation unchanged  root inside a chroot (tools/fresh-machine.sh, CI), where
                                      "/" is no mount point and user namespaces are refused.
When none works the cases fail, naming each attempt's error, unless XGPU_TEST_NO_MOUNT=1
says so beforehand: they are then reported as skipped (exit code 77)."""

import os
import subprocess

VARIANTS = (["unshare", "-m"], ["unshare", "-rm"], ["unshare", "-m", "--propagation", "unchanged"])
SKIP_CODE = 77


def find_namespace(scratch):
    """(the unshare command that can mount here, None) or (None, why none can)."""
    probe = os.path.join(scratch, "mount-probe")
    os.makedirs(probe, exist_ok=True)
    errors = []
    for variant in VARIANTS:
        script = "mount -t tmpfs -o size=4k tmpfs '%s' && umount '%s'" % (probe, probe)
        try:
            done = subprocess.run(variant + ["sh", "-c", script], capture_output=True, text=True,
                                  timeout=30)
        except (OSError, subprocess.TimeoutExpired) as error:
            errors.append("%s: %s" % (" ".join(variant), error))
            continue
        if done.returncode == 0:
            return variant, None
        errors.append("%s: %s" % (" ".join(variant),
                                  (done.stderr.strip() or "exit %d" % done.returncode)))
    return None, "; ".join(errors)


def mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    run(["mount", "-t", "tmpfs", "-o", "size=%s,mode=0700" % size, "tmpfs", path])


def remount_read_only(path):
    run(["mount", "-o", "remount,ro", path])


def unmount(path):
    # The namespace would drop it at exit anyway; not with --propagation unchanged, though.
    subprocess.run(["umount", path], capture_output=True)


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(command), done.stderr.strip()))
