#!/usr/bin/env python3
# Random library trees, and the differential test of `cudawiz why` against
# the real glibc loader on them (tests/cli/loader-differential*.sh).
"""Seeded random library trees; `cudawiz why --json` against glibc.

Each tree is a directory of real shared objects linked with `ld` directly
(fast): private names (libcwt*), NEEDED lists with system and missing
names, RPATH/RUNPATH with $ORIGIN/${ORIGIN}/$LIB/$PLATFORM, relative and
empty entries, DF_1_NODEFLIB, hardware-capability subdirectories, symlinked
directories and libraries, and decoys the loader skips or dies on. A tree
is rebuilt identically from its seed.

The loader's answer comes from glibc itself: `ld.so` in trace mode
(LD_TRACE_LOADED_OBJECTS=1, what ldd runs) for `why --from FILE`, and
tests/tools/dlopen-probe for `why NAME` and `why NAME --from FILE`; both
run with LD_DEBUG=libs,files so the search step that found each object
and the error that stopped glibc are known too.

  gentree.py run --cudawiz BIN --probe BIN --work DIR [--first N]
                 [--count K] [--jobs J] [--modes list,dlopen,dlopen-from]
      TAP, one test per tree; a failing tree is kept with a replay line.
  gentree.py one --seed N --cudawiz BIN --probe BIN --work DIR [--modes M]
      one tree (the same as in a run with the same --modes), kept, with
      everything about it printed.
  gentree.py selftest --probe BIN --work DIR
      TAP: the comparison itself catches wrong answers.

Standard library only.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import threading
import traceback

LDSO = '/lib64/ld-linux-x86-64.so.2'
LETTERS = 'abcdefgh'
POOL = ['libcwt%s.so.%d' % (c, n) for c in LETTERS for n in (1, 2)]
# In /etc/ld.so.cache on the build machines (and everywhere glibc is);
# libcudart.so.13 is cached outside the system directories, which matters
# for DF_1_NODEFLIB. dlopen trees leave it out: dlopen runs constructors.
SYSTEM_NAMES = ['libc.so.6', 'libm.so.6', 'libz.so.1', 'libdl.so.2']


def _default_dir_name():
	"""A file in a default directory that the cache does not list (it
	lists sonames and .so links): libz.so.1's real name, libz.so.1.2.13."""
	for d in ('/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib64',
		  '/usr/lib64'):
		real = os.path.realpath(os.path.join(d, 'libz.so.1'))
		if os.path.exists(real) and os.path.basename(real) != 'libz.so.1':
			return os.path.basename(real)
	return 'libz.so.1'


SYSTEM_NAMES.append(_default_dir_name())
CACHE_NAMES = ['libcudart.so.13']
MISSING_NAMES = ['libcwtnone.so.1', 'libcwtgone.so.3']
SYSTEM_DIRS = ['/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib64',
	       '/usr/local/cuda/lib64']
MODES = ('list', 'dlopen', 'dlopen-from')
TIMEOUT = 60

# Search directories a tree may use, as paths under its root.
DIR_CHOICES = [
	'lib', 'lib64', 'usr/lib', 'usr/local/lib', 'opt/app/lib',
	'opt/app/lib/x86_64-linux-gnu', 'env/lib', 'a', 'b/c', 'pkg',
	'pkg/lib/haswell', 'pkg/x86_64', 'sp ace/lib', 'deep/er/lib',
	'cuda/lib64', 'stubs', 'pkg/lib/x86_64-linux-gnu', 'w/d$x',
]
# Hardware capability subdirectories, searched and not (glibc 2.36,
# x86-64: `ld.so --help` lists the ones it searches).
HWCAP_SUBDIRS = [
	'glibc-hwcaps/x86-64-v2', 'glibc-hwcaps/x86-64-v3',
	'glibc-hwcaps/x86-64-v4', 'glibc-hwcaps/x86-64-v9', 'tls', 'x86_64',
	'haswell', 'tls/x86_64', 'avx512_1', 'i686', 'tls/haswell/x86_64',
]
DECOYS = [
	# kind, weight, whether glibc 2.36 stops on it (or passes over it)
	('aarch64', 4, False),	# a real library with e_machine = EM_AARCH64
	('class32', 4, False),	# an ELFCLASS32 header, 64+ bytes
	('dangling', 3, False),	# a symlink to nothing
	('symlink-other', 3, False),	# a symlink to another library
	('text', 2, True),	# not ELF at all
	('empty', 1, True),
	('dir', 1, True),	# a directory with the library's name
	('etrel', 1, True),	# a relocatable object (ET_REL)
	('bigendian', 1, False),	# ELFCLASS64, ELFDATA2MSB
	('short', 1, True),	# the first 40 bytes of a real library
	('osabi', 1, True),	# EI_OSABI = ARM
]


def die(msg):
	sys.stderr.write('gentree: %s\n' % msg)
	sys.exit(2)


def run(argv, **kw):
	return subprocess.run(argv, stdout=subprocess.PIPE,
			      stderr=subprocess.PIPE, timeout=TIMEOUT, **kw)


# ---------------------------------------------------------------------
# The kit: objects and stub libraries made once per run.

class Kit:
	"""Objects assembled once (an empty one, a PIE entry point, one that
	calls dlopen) and stub libraries whose only content is a SONAME:
	linking against a stub adds that name to DT_NEEDED."""

	ASM_EMPTY = '.section .note.GNU-stack,"",@progbits\n'
	ASM_START = ('.text\n.globl _start\n.type _start,@function\n'
		     '_start:\n\tret\n' + ASM_EMPTY)
	# void *cwt_probe_open(const char *name) { return dlopen(name, RTLD_LAZY); }
	# A real call, not a tail call: dlopen() takes the caller's RPATH and
	# RUNPATH from its return address, which must lie in this object.
	ASM_OPENER = ('.text\n.globl cwt_probe_open\n'
		      '.type cwt_probe_open,@function\ncwt_probe_open:\n'
		      '\tsubq $8, %rsp\n\tmovl $1, %esi\n\tcall dlopen@PLT\n'
		      '\taddq $8, %rsp\n\tret\n' + ASM_EMPTY)

	def __init__(self, work):
		self.dir = os.path.join(work, 'kit')
		os.makedirs(os.path.join(self.dir, 'stubs'), exist_ok=True)
		self.lock = threading.Lock()
		self.stubs = {}
		self.empty = self._assemble('empty.o', self.ASM_EMPTY)
		self.start = self._assemble('start.o', self.ASM_START)
		self.opener = self._assemble('opener.o', self.ASM_OPENER)
		for name in POOL + SYSTEM_NAMES + CACHE_NAMES + MISSING_NAMES:
			self.stub(name)
		# Needs a name found nowhere: glibc then prints all of
		# LD_LIBRARY_PATH, labelled as such (llp_dirs()).
		self.llp_probe = os.path.join(self.dir, 'llp-probe.so')
		ld(['-shared', '-o', self.llp_probe, '--disable-new-dtags', self.empty,
		    self.stub('libcwt-llp-probe.so.1')])

	def _assemble(self, name, text):
		out = os.path.join(self.dir, name)
		p = subprocess.run(['as', '-o', out, '-'], input=text.encode(),
				   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
		if p.returncode != 0:
			die('as failed: %s' % p.stderr.decode(errors='replace'))
		return out

	def stub(self, soname):
		with self.lock:
			if soname in self.stubs:
				return self.stubs[soname]
			key = hashlib.sha1(soname.encode()).hexdigest()[:16]
			out = os.path.join(self.dir, 'stubs', key + '.so')
			ld(['-shared', '-o', out, '-soname', soname, self.empty])
			self.stubs[soname] = out
			return out


def ld(args):
	p = run(['ld'] + args)
	if p.returncode != 0:
		raise RuntimeError('ld %s: %s' % (' '.join(map(shlex.quote, args)),
						  p.stderr.decode(errors='replace')))


# ---------------------------------------------------------------------
# A tree.

class Tree:
	"""Builds one tree under root from seed; describe() says what it is."""

	def __init__(self, seed, root, kit, modes=MODES):
		self.seed = seed
		self.root = root
		self.kit = kit
		self.rng = random.Random(seed)
		self.features = set()
		self.layout = []	# (relpath, description)
		self.dirs = []		# real search directories, relative to root
		self.links = {}		# symlinked directory -> its target (relative)
		self.copies = []	# (relpath, soname) of real libraries
		self.mode = self.rng.choice(modes)
		self.requester = None	# as passed to ld.so / cudawiz
		self.name = None	# the name dlopen()ed
		self.llp = None		# LD_LIBRARY_PATH; None: unset
		self.cwd = root

	# -- helpers

	def p(self, rel):
		return os.path.join(self.root, rel)

	def chance(self, x):
		return self.rng.random() < x

	def note(self, rel, what):
		self.layout.append((rel, what))

	def aliases(self, rel):
		"""Every spelling of directory rel under the root: itself and
		through each symlinked directory that leads into it."""
		out = [rel]
		for link, target in self.links.items():
			if rel == target:
				out.append(link)
			elif rel.startswith(target + '/'):
				out.append(link + rel[len(target):])
		return out

	def spell_abs(self, rel):
		a = self.p(self.rng.choice(self.aliases(rel)))
		r = self.rng.random()
		if r < 0.08:
			self.features.add('spelling:trailing-slash')
			return a + '/'
		if r < 0.14:
			self.features.add('spelling:dot-and-double-slash')
			head, tail = os.path.split(a)
			return head + '/.//' + tail
		return a

	def spell_rel_cwd(self, rel):
		a = self.p(self.rng.choice(self.aliases(rel)))
		return os.path.relpath(a, self.cwd)

	def spell_search_entry(self, rel, owner_dir):
		"""An RPATH/RUNPATH entry that names directory rel, for an object
		whose real directory is owner_dir (None: only absolute ones)."""
		choices = ['abs', 'abs', 'origin', 'origin', 'origin-brace',
			   'rel-cwd']
		if rel.endswith('/lib/x86_64-linux-gnu') or rel == 'lib/x86_64-linux-gnu':
			choices += ['lib', 'lib']
		if os.path.basename(rel) in ('haswell', 'x86_64'):
			choices += ['platform', 'platform']
		if owner_dir is None:
			choices = [c for c in choices if not c.startswith('origin')]
		how = self.rng.choice(choices)
		target = self.rng.choice(self.aliases(rel))
		if how == 'lib' and not target.endswith('lib/x86_64-linux-gnu'):
			target = rel
		if how == 'platform' and os.path.basename(target) not in ('haswell', 'x86_64'):
			target = rel
		if how == 'abs':
			return self.spell_abs(rel)
		if how == 'rel-cwd':
			self.features.add('rpath:relative')
			return self.spell_rel_cwd(rel)
		if how in ('origin', 'origin-brace'):
			token = '$ORIGIN' if how == 'origin' else '${ORIGIN}'
			self.features.add('rpath:' + token)
			r = os.path.relpath(self.p(target), self.p(owner_dir))
			if '..' in r.split('/'):
				self.features.add('rpath:$ORIGIN/..')
			return token if r == '.' else token + '/' + r
		if how == 'lib':
			self.features.add('dst:$LIB')
			base = target[:-len('lib/x86_64-linux-gnu')].rstrip('/')
			if owner_dir is not None and self.chance(0.5):
				r = os.path.relpath(self.p(base) if base else self.root,
						    self.p(owner_dir))
				return '$ORIGIN/' + ('' if r == '.' else r + '/') + '$LIB'
			return os.path.join(self.p(base) if base else self.root, '$LIB')
		# platform
		self.features.add('dst:$PLATFORM')
		base = os.path.dirname(target)
		return os.path.join(self.p(base), '$PLATFORM')

	def junk_entry(self, owner_dir):
		r = self.rng.random()
		if r < 0.3:
			self.features.add('path:empty-entry')
			return ''
		if r < 0.6:
			self.features.add('path:missing-dir')
			return self.p('no/such/dir%d' % self.rng.randrange(3))
		if r < 0.75:
			self.features.add('path:unknown-dst')
			return '$ORIGINX' if self.chance(0.5) else self.p('$NOPE/lib')
		if r < 0.82 and owner_dir is not None:
			self.features.add('rpath:$ORIGIN')
			return '$ORIGIN'
		if r < 0.9:
			# A system directory named outright (as cache and default
			# directories already search it), or a toolkit's.
			self.features.add('path:system-dir')
			return self.rng.choice(SYSTEM_DIRS)
		self.features.add('path:relative-missing')
		return 'nowhere/lib'

	# -- building

	def build(self):
		os.makedirs(self.root)
		rng = self.rng
		for rel in rng.sample(DIR_CHOICES, rng.randint(3, 6)):
			os.makedirs(self.p(rel), exist_ok=True)
			self.dirs.append(rel)
			if ' ' in rel or '$' in rel:
				self.features.add('dir:odd-name')
		# Symlinked directories, mostly short names for deep ones, so
		# "$ORIGIN/.." through them differs from the lexical answer.
		for i in range(rng.choice((0, 1, 1, 2))):
			target = rng.choice(self.dirs)
			link = 'ln%d' % i
			dest = (target if rng.random() < 0.5 else self.p(target))
			if not os.path.isabs(dest):
				dest = os.path.relpath(self.p(target), self.root)
			os.symlink(dest, self.p(link))
			self.links[link] = target
			self.note(link, 'symlink -> %s' % dest)
			self.features.add('dir:symlinked')
		if rng.random() < 0.3:
			# A symlink to a directory that holds a search directory.
			deep = [d for d in self.dirs if '/' in d]
			if deep:
				target = os.path.dirname(rng.choice(deep))
				os.symlink(target if target else '.', self.p('up'))
				self.links['up'] = target
				self.note('up', 'symlink -> %s' % target)
				self.features.add('dir:symlinked-parent')
		cwd_rel = rng.choice(['', '', ''] + self.dirs)
		self.cwd = self.p(cwd_rel) if cwd_rel else self.root

		n_ids = rng.randint(2, 7)
		self.ids = rng.sample(POOL, n_ids)
		for soname in self.ids:
			for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
				self.make_copy(soname)
		for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
			self.make_decoy()
		self.make_request()
		self.make_env()
		self.write_description()

	def place(self):
		"""A directory for a library: a search directory or one of its
		hardware capability subdirectories."""
		d = self.rng.choice(self.dirs)
		if self.rng.random() < 0.2:
			sub = self.rng.choice(HWCAP_SUBDIRS)
			self.features.add('hwcap:' + sub)
			d = d + '/' + sub
			os.makedirs(self.p(d), exist_ok=True)
		return d

	def pick_needed(self, owner_dir, n, for_dlopen):
		rng = self.rng
		names = []
		for _ in range(n):
			r = rng.random()
			if r < 0.55:
				names.append(rng.choice(self.ids))
			elif r < 0.7:
				sysn = SYSTEM_NAMES + ([] if for_dlopen else CACHE_NAMES)
				names.append(rng.choice(sysn))
				self.features.add('needed:system')
			elif r < 0.82:
				names.append(rng.choice(MISSING_NAMES))
				self.features.add('needed:missing')
			elif r < 0.9 and self.copies:
				rel, _ = rng.choice(self.copies)
				x = rng.random()
				libdir = os.path.dirname(rel)
				if owner_dir is not None and x < 0.5:
					self.features.add('needed:$ORIGIN-path')
					r2 = os.path.relpath(self.p(rel), self.p(owner_dir))
					names.append('$ORIGIN/' + r2)
				elif owner_dir is not None and x < 0.6 and \
				    libdir.endswith('lib/x86_64-linux-gnu'):
					self.features.add('needed:$LIB-path')
					base = self.p(libdir[:-len('lib/x86_64-linux-gnu')])
					r2 = os.path.relpath(base, self.p(owner_dir))
					names.append('$ORIGIN/%s/$LIB/%s' % (
					    r2, os.path.basename(rel)))
				elif x < 0.75:
					# Relative to the current directory.
					self.features.add('needed:relative-path')
					r2 = os.path.relpath(self.p(rel), self.cwd)
					names.append(r2 if '/' in r2 else './' + r2)
				else:
					self.features.add('needed:absolute-path')
					names.append(self.p(rel))
			else:
				names.append(rng.choice(POOL))
				self.features.add('needed:pool')
		out = []
		for x in names:
			if x not in out:
				out.append(x)
		return out

	def pick_path(self, owner_dir):
		"""(dtag, entries, nodeflib) for an object: no path, RPATH or
		RUNPATH with 1-4 entries."""
		rng = self.rng
		r = rng.random()
		if r < 0.45:
			kind = None
		elif r < 0.72:
			kind = 'rpath'
		else:
			kind = 'runpath'
		entries = []
		if kind and rng.random() < 0.06:
			# DT_RPATH/DT_RUNPATH "": glibc ignores it (not the
			# current directory, as an empty entry in a list is).
			self.features.add(kind)
			self.features.add('path:empty-string')
			return kind, [''], rng.random() < 0.1
		if kind:
			self.features.add(kind)
			for _ in range(rng.randint(1, 4)):
				if rng.random() < 0.2:
					entries.append(self.junk_entry(owner_dir))
				else:
					entries.append(self.spell_search_entry(
					    rng.choice(self.dirs), owner_dir))
		nodeflib = rng.random() < 0.1
		if nodeflib:
			self.features.add('nodeflib')
		return kind, entries, nodeflib

	def link(self, out, soname, needed, kind, entries, nodeflib,
		 objs=None, pie=False):
		args = ['-o', out]
		if pie:
			args = ['-pie', '--dynamic-linker', LDSO] + args
		else:
			args = ['-shared'] + args
		if soname:
			args += ['-soname', soname]
		if kind:
			args.append('--enable-new-dtags' if kind == 'runpath'
				    else '--disable-new-dtags')
			args += ['-rpath', ':'.join(entries)]
		else:
			args.append('--disable-new-dtags')
		if nodeflib:
			args += ['-z', 'nodefaultlib']
		args += objs or [self.kit.empty]
		args += [self.kit.stub(n) for n in needed]
		ld(args)

	def describe_elf(self, soname, needed, kind, entries, nodeflib):
		s = 'SONAME %s' % soname if soname else 'no SONAME'
		if needed:
			s += '; NEEDED %s' % ', '.join(needed)
		if kind:
			s += '; %s %s' % (kind.upper(), ':'.join(entries))
		if nodeflib:
			s += '; NODEFLIB'
		return s

	def make_copy(self, soname):
		rng = self.rng
		d = self.place()
		fname = soname
		real_soname = soname
		if rng.random() < 0.12:
			real_soname = rng.choice([x for x in POOL if x != soname])
			self.features.add('soname-differs')
		needed = self.pick_needed(d, rng.choice((0, 1, 1, 2, 3)), False)
		kind, entries, nodeflib = self.pick_path(d)
		rel = d + '/' + fname
		if os.path.lexists(self.p(rel)):
			return
		if rng.random() < 0.1:
			# The file lives elsewhere (a package store, as conda
			# and pip wheels do it): $ORIGIN is the link's directory.
			store = 'store/%s-%d' % (soname, rng.randrange(1000))
			os.makedirs(self.p(store), exist_ok=True)
			self.link(self.p(store + '/' + fname), real_soname, needed,
				  kind, entries, nodeflib)
			target = os.path.relpath(self.p(store + '/' + fname), self.p(d)) \
			    if rng.random() < 0.5 else self.p(store + '/' + fname)
			os.symlink(target, self.p(rel))
			self.note(store + '/' + fname, self.describe_elf(
			    real_soname, needed, kind, entries, nodeflib))
			self.note(rel, 'symlink -> %s' % target)
			self.features.add('lib:symlink-to-store')
		elif rng.random() < 0.2:
			# The usual versioned file with the SONAME as a symlink.
			real = fname + '.0.%d' % rng.randrange(9)
			self.link(self.p(d + '/' + real), real_soname, needed,
				  kind, entries, nodeflib)
			os.symlink(real, self.p(rel))
			self.note(d + '/' + real, self.describe_elf(
			    real_soname, needed, kind, entries, nodeflib))
			self.note(rel, 'symlink -> %s' % real)
			self.features.add('lib:versioned-symlink')
		else:
			self.link(self.p(rel), real_soname, needed, kind, entries,
				  nodeflib)
			self.note(rel, self.describe_elf(real_soname, needed, kind,
							 entries, nodeflib))
		self.copies.append((rel, real_soname))

	def make_decoy(self):
		rng = self.rng
		kinds = [k for k, w, _ in DECOYS for _ in range(w)]
		kind = rng.choice(kinds)
		name = rng.choice(self.ids + MISSING_NAMES[:1])
		d = self.place()
		rel = d + '/' + name
		if os.path.lexists(self.p(rel)):
			return
		path = self.p(rel)
		self.features.add('decoy:' + kind)
		donor = self.p(rng.choice(self.copies)[0]) if self.copies else None
		if kind in ('aarch64', 'short', 'osabi') and donor is None:
			kind = 'text'
		if kind == 'aarch64':
			data = bytearray(open(donor, 'rb').read())
			data[18:20] = (183).to_bytes(2, 'little')
			open(path, 'wb').write(data)
		elif kind == 'class32':
			hdr = bytearray(b'\x7fELF\x01\x01\x01' + bytes(9))
			hdr += (3).to_bytes(2, 'little')	# ET_DYN
			hdr += (3).to_bytes(2, 'little')	# EM_386
			hdr += (1).to_bytes(4, 'little')
			hdr += bytes(96 - len(hdr))
			open(path, 'wb').write(hdr)
		elif kind == 'bigendian':
			hdr = b'\x7fELF\x02\x02\x01' + bytes(9)
			hdr += (3).to_bytes(2, 'big') + (62).to_bytes(2, 'big')
			open(path, 'wb').write(hdr + bytes(96 - len(hdr)))
		elif kind == 'osabi':
			data = bytearray(open(donor, 'rb').read())
			data[7] = 97
			open(path, 'wb').write(data)
		elif kind == 'short':
			open(path, 'wb').write(open(donor, 'rb').read()[:40])
		elif kind == 'etrel':
			shutil.copyfile(self.kit.empty, path)
		elif kind == 'text':
			# Under 64 bytes glibc says "file too short", else
			# "invalid ELF header".
			text = '/* GNU ld script */\nINPUT(%s)\n' % name
			if rng.random() < 0.5:
				text = '/* GNU ld script: the real library is elsewhere */\n' + \
				    'GROUP ( %s AS_NEEDED ( %s ) )\n' % (name, name)
			open(path, 'w').write(text)
		elif kind == 'empty':
			open(path, 'w').close()
		elif kind == 'dir':
			os.makedirs(path)
		elif kind == 'dangling':
			os.symlink('gone-' + name, path)
		elif kind == 'symlink-other':
			if not self.copies:
				os.symlink('gone-' + name, path)
			else:
				target = rng.choice(self.copies)[0]
				os.symlink(os.path.relpath(self.p(target), self.p(d)),
					   path)
		self.note(rel, 'decoy: %s' % kind)

	def make_request(self):
		rng = self.rng
		if self.mode == 'dlopen':
			self.name = self.pick_dlopen_name()
			return
		# The requester: a library (or, in list mode, a PIE) with its
		# own NEEDED and search path.
		where = rng.choice(['bin', 'bin'] + self.dirs)
		os.makedirs(self.p(where), exist_ok=True)
		pie = self.mode == 'list' and rng.random() < 0.3
		fname = 'app' if pie else 'libcwtreq.so'
		rel = where + '/' + fname
		if self.mode == 'list':
			needed = self.pick_needed(where, rng.randint(1, 4), False)
		else:
			# dlopen-probe must load it first: mostly names that resolve.
			needed = [rng.choice(['libm.so.6', 'libz.so.1'])]
			if rng.random() < 0.3:
				needed.insert(0, rng.choice(self.ids))
		kind, entries, nodeflib = self.pick_path(where)
		objs = None
		if self.mode == 'dlopen-from':
			nodeflib = False	# libm must load
			objs = [self.kit.opener]
			if 'libc.so.6' not in needed:
				needed.append('libc.so.6')
		elif pie:
			objs = [self.kit.start]
		soname = None if pie else (
		    rng.choice(POOL) if rng.random() < 0.1 else 'libcwtreq.so')
		if soname and soname != 'libcwtreq.so':
			self.features.add('requester:pool-soname')
		self.link(self.p(rel), soname, needed, kind, entries, nodeflib,
			  objs=objs, pie=pie)
		self.note(rel, ('PIE; ' if pie else '') + self.describe_elf(
		    soname, needed, kind, entries, nodeflib))
		r = rng.random()
		if pie:
			# A program started normally takes $ORIGIN from
			# /proc/self/exe, symlinks resolved, while ld.so --list
			# takes the path it is given; cudawiz follows the former,
			# so a PIE is named by its real path here.
			r = 1.0
		if r < 0.15:
			self.features.add('requester:relative')
			path = os.path.relpath(self.p(rel), self.cwd)
			if '/' not in path:
				path = './' + path
		elif r < 0.35 and len(self.aliases(where)) > 1:
			self.features.add('requester:via-symlink')
			path = self.p(rng.choice(self.aliases(where)[1:]) + '/' + fname)
		else:
			path = self.p(rel)
		self.requester = path
		if self.mode == 'dlopen-from':
			self.name = self.pick_dlopen_name()

	def pick_dlopen_name(self):
		rng = self.rng
		r = rng.random()
		if self.mode == 'dlopen-from' and self.copies and r < 0.08:
			# dlopen() expands $ORIGIN with the caller's directory.
			self.features.add('dlopen:$ORIGIN-path')
			rel = rng.choice(self.copies)[0]
			return '$ORIGIN/' + os.path.relpath(
			    self.p(rel), os.path.dirname(os.path.join(self.cwd, self.requester)))
		if r < 0.7 or not self.copies:
			return rng.choice(self.ids)
		if r < 0.78:
			self.features.add('dlopen:missing')
			return rng.choice(MISSING_NAMES)
		if r < 0.86:
			self.features.add('dlopen:system')
			return rng.choice(['libm.so.6', 'libz.so.1', SYSTEM_NAMES[-1]])
		rel = rng.choice(self.copies)[0]
		if rng.random() < 0.5:
			self.features.add('dlopen:absolute-path')
			return self.p(rng.choice(self.aliases(os.path.dirname(rel)))
				      + '/' + os.path.basename(rel))
		self.features.add('dlopen:relative-path')
		path = os.path.relpath(self.p(rel), self.cwd)
		return path if '/' in path else './' + path

	def make_env(self):
		rng = self.rng
		r = rng.random()
		if r < 0.22:
			self.llp = None
			return
		if r < 0.27:
			self.features.add('llp:set-empty')
			self.llp = ''
			return
		entries = []
		for _ in range(rng.randint(1, 5)):
			x = rng.random()
			if x < 0.55:
				entries.append(self.spell_abs(rng.choice(self.dirs)))
			elif x < 0.7:
				self.features.add('llp:relative')
				entries.append(self.spell_rel_cwd(rng.choice(self.dirs)))
			elif x < 0.78:
				cands = [d for d in self.dirs
					 if d.endswith('lib/x86_64-linux-gnu')
					 or os.path.basename(d) in ('haswell', 'x86_64')]
				if cands:
					entries.append(self.spell_search_entry(
					    rng.choice(cands), None))
				else:
					entries.append(self.spell_abs(rng.choice(self.dirs)))
			else:
				e = self.junk_entry(None)
				entries.append(e)
		seps = [':'] * 3 + [';']
		out = entries[0]
		for e in entries[1:]:
			sep = rng.choice(seps)
			if sep == ';':
				self.features.add('llp:semicolon')
			out += sep + e
		if rng.random() < 0.1:
			self.features.add('path:empty-entry')
			out = out + ':' if rng.random() < 0.5 else ':' + out
		self.llp = out
		self.features.add('llp')

	# -- description

	def describe(self):
		return {
			'seed': self.seed, 'root': self.root, 'mode': self.mode,
			'requester': self.requester, 'name': self.name,
			'ld_library_path': self.llp, 'cwd': self.cwd,
			'features': sorted(self.features),
			'layout': [{'path': a, 'what': b} for a, b in self.layout],
		}

	def write_description(self):
		with open(os.path.join(self.root, 'tree.json'), 'w') as f:
			json.dump(self.describe(), f, indent=1)


# ---------------------------------------------------------------------
# The real loader's answer.

RE_DEBUG = re.compile(r'^\s*\d+:\t?(.*)$')
RE_REQ = re.compile(r'^file=(.*) \[\d+\];  (needed by|dynamically loaded by) (.*) \[\d+\]$')
RE_MAP = re.compile(r'^file=(.*) \[\d+\];  generating link map$')
RE_SEARCH = re.compile(r'^ search path=.*\t\t\((.*)\)$')
RE_TRY = re.compile(r'^  trying file=(.*)$')
RE_LIST = re.compile(r'^\t(.*) => (.*) \(0x[0-9a-f]+\)$')
RE_LIST_NF = re.compile(r'^\t(.*) => not found$')
RE_LIST_SELF = re.compile(r'^\t(.*) \(0x[0-9a-f]+\)$')
RE_FATAL = re.compile(r'error while loading shared libraries: (.*)$')


def source_of(text):
	"""The `why` step source for a LD_DEBUG search-path annotation."""
	if text.startswith('RPATH from file'):
		return 'rpath'
	if text.startswith('RUNPATH from file'):
		return 'runpath'
	if text == 'LD_LIBRARY_PATH':
		return 'ld_library_path'
	if text == 'system search path':
		return 'default'
	return 'unknown:' + text


def same_file(a, b, cwd):
	"""Relative paths are the loader's, from the tree's cwd."""
	try:
		sa = os.stat(os.path.join(cwd, a))
		sb = os.stat(os.path.join(cwd, b))
	except OSError:
		return False
	return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def has_runpath(path, cwd):
	"""Whether the ELF object at path has DT_RUNPATH (read directly:
	ELF64 little-endian, PT_DYNAMIC)."""
	try:
		with open(os.path.join(cwd, path), 'rb') as f:
			data = f.read()
	except OSError:
		return False
	if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
		return False
	u16 = lambda o: int.from_bytes(data[o:o + 2], 'little')
	u64 = lambda o: int.from_bytes(data[o:o + 8], 'little')
	phoff, phentsize, phnum = u64(32), u16(54), u16(56)
	for i in range(phnum):
		ph = phoff + i * phentsize
		if int.from_bytes(data[ph:ph + 4], 'little') != 2:	# PT_DYNAMIC
			continue
		off, size = u64(ph + 8), u64(ph + 32)
		for o in range(off, off + size, 16):
			tag = u64(o)
			if tag == 0:
				break
			if tag == 29:	# DT_RUNPATH
				return True
	return False


def llp_dirs(tree, kit):
	"""Every directory glibc makes of LD_LIBRARY_PATH (expanded, with the
	hardware capability subdirectories), as its LD_DEBUG prints them when
	nothing else has named them first."""
	if not tree['ld_library_path']:
		return set()
	env = loader_env(tree['ld_library_path'],
			 {'LD_TRACE_LOADED_OBJECTS': '1', 'LD_DEBUG': 'libs'})
	p = run([LDSO, kit.llp_probe], cwd=tree['cwd'], env=env)
	# A system directory was named first by glibc's own list: it is
	# labelled as such, so LD_LIBRARY_PATH's own words count too.
	out = {x.rstrip('/') or '/' for x in re.split('[:;]', tree['ld_library_path'])
	       if x.startswith('/')}
	for raw in p.stderr.decode(errors='replace').splitlines():
		m = RE_DEBUG.match(raw)
		m = m and re.match(r'^ search path=(.*)\t\t\(LD_LIBRARY_PATH\)$', m.group(1))
		if m:
			out.update(m.group(1).split(':'))
	return out


def exact_via(e, llp, cwd):
	"""glibc's LD_DEBUG labels a directory with the list that named it
	first, not the list being searched (a directory in both the main
	program's RUNPATH and LD_LIBRARY_PATH is "RUNPATH" for both under
	ld.so). The search order says which list found it: RPATH of the
	loader chain (only when the loader has no RUNPATH), LD_LIBRARY_PATH,
	the loader's RUNPATH. Returns the set of possible sources."""
	label = e['via']
	if label not in ('rpath', 'runpath', 'ld_library_path', 'default'):
		return {label}
	d = os.path.dirname(e['path'])
	runpath = has_runpath(e['by'], cwd) if e.get('by') else False
	if d in llp:
		return {'ld_library_path'} if runpath else {'ld_library_path', 'rpath'}
	if label == 'default':
		# A system directory also named in an RPATH or RUNPATH.
		return {'default', 'runpath' if runpath else 'rpath'}
	return {'runpath'} if runpath else {'rpath'}


def parse_debug(text):
	"""The loader's requests in order: name, who asked, each search
	source with the files tried, whether a link map was made."""
	reqs = []
	cur = None
	src = None
	for raw in text.splitlines():
		m = RE_DEBUG.match(raw)
		if not m:
			continue
		s = m.group(1)
		m = RE_REQ.match(s)
		if m:
			cur = {'name': m.group(1), 'by': m.group(3), 'tried': [],
			       'mapped': False}
			reqs.append(cur)
			src = None
			continue
		if cur is None:
			continue
		m = RE_MAP.match(s)
		if m:
			cur['mapped'] = True
			cur = None
			continue
		m = RE_SEARCH.match(s)
		if m:
			src = source_of(m.group(1))
			continue
		if s.startswith(' search cache='):
			src = 'cache'
			continue
		m = RE_TRY.match(s)
		if m:
			cur['tried'].append((m.group(1), src))
	return reqs


def loader_env(tree_llp, extra):
	env = {'LC_ALL': 'C', 'PATH': '/usr/bin:/bin'}
	if tree_llp is not None:
		env['LD_LIBRARY_PATH'] = tree_llp
	env.update(extra)
	return env


class Truth:
	"""What glibc did: entries (name, path, via, state) in load order,
	state one of found / not_found / fatal; error: glibc's message when
	it stopped; dedup: names that found an already loaded file."""

	def __init__(self):
		self.entries = []
		self.error = None
		self.dedup = []
		self.skip = None	# why this tree cannot be compared
		self.raw = ''


def entry(name, path, via, state, error=None):
	return {'name': name, 'path': path, 'via': via, 'state': state,
		'error': error}


def interpret(reqs, fatal_path, fatal_msg, stop_at_first_failure, cwd,
	      loaded_before=()):
	"""Turns the requests into entries; mapped objects are checked
	against the listing by the caller."""
	out = []
	dedup = []
	mapped = list(loaded_before)
	for i, r in enumerate(reqs):
		last = r['tried'][-1] if r['tried'] else None
		if r['mapped']:
			path = last[0] if last else r.get('expanded', r['name'])
			via = last[1] if last else 'path'
			out.append(entry(r['name'], path, via, 'found'))
			out[-1]['by'] = r['by']
			mapped.append(path)
			continue
		if fatal_path is not None and i == len(reqs) - 1:
			via = last[1] if last else 'path'
			out.append(entry(r['name'], fatal_path, via, 'fatal',
					 fatal_msg))
			break
		cand = last[0] if last else r.get('expanded', r['name'])
		if any(same_file(cand, m, cwd) for m in mapped):
			# The file is one already loaded under another name:
			# glibc adds the name to that object, loads nothing.
			dedup.append({'name': r['name'], 'path': cand})
			continue
		out.append(entry(r['name'], None, None, 'not_found'))
		if stop_at_first_failure:
			break
	return out, dedup


def truth_list(tree, kit):
	t = Truth()
	env = loader_env(tree['ld_library_path'],
			 {'LD_TRACE_LOADED_OBJECTS': '1', 'LD_DEBUG': 'libs,files'})
	p = run([LDSO, tree['requester']], cwd=tree['cwd'], env=env)
	out = p.stdout.decode(errors='replace')
	err = p.stderr.decode(errors='replace')
	t.raw = '$ ld.so (trace) exit %d\n%s%s' % (p.returncode, out, err)
	fatal_path = fatal_msg = None
	for line in err.splitlines():
		m = RE_FATAL.search(line)
		if m and not RE_DEBUG.match(line):
			t.error = m.group(1)
	reqs = parse_debug(err)
	if t.error is not None:
		if not reqs:
			t.skip = 'glibc cannot load the requester: ' + t.error
			return t
		last = reqs[-1]
		cand = last['tried'][-1][0] if last['tried'] else last['name']
		if not t.error.startswith(cand + ': ') or last['mapped']:
			t.skip = 'glibc stops after loading, in a check cudawiz ' \
			    'does not model: ' + t.error
			return t
		fatal_path, fatal_msg = cand, t.error[len(cand) + 2:]
		# ld.so has no strerror(): "cannot read file data: Error 21"
		# is dlerror()'s "…: Is a directory" in a running program.
		fatal_msg = re.sub(r'Error (\d+)$',
				   lambda m: os.strerror(int(m.group(1))), fatal_msg)
	t.entries, t.dedup = interpret(reqs, fatal_path, fatal_msg, False,
				       tree['cwd'])
	if t.error is not None and t.entries and t.entries[-1]['state'] != 'fatal':
		t.skip = 'glibc stops after loading, in a check cudawiz does not ' \
		    'model: ' + t.error
		return t
	# The listing must say the same (it is printed only when glibc did
	# not stop): a disagreement here is a fault of this harness.
	if t.error is None:
		listed = []
		ldso_real = os.path.realpath(LDSO)
		for line in out.splitlines():
			m = RE_LIST_NF.match(line)
			if m:
				listed.append((m.group(1), None))
				continue
			m = RE_LIST.match(line)
			if m:
				listed.append((m.group(1), m.group(2)))
				continue
			m = RE_LIST_SELF.match(line)
			if m:
				name = m.group(1)
				if name.startswith('linux-vdso') or \
				   os.path.realpath(name) == ldso_real:
					continue
				listed.append((name, name))
		ours = [(e['name'], e['path']) for e in t.entries]
		if listed != ours:
			t.skip = ('HARNESS: LD_DEBUG and the listing disagree:\n'
				  '  listing: %r\n  debug:   %r' % (listed, ours))
	return t


def truth_dlopen(tree, probe, kit):
	t = Truth()
	env = loader_env(tree['ld_library_path'], {'LD_DEBUG': 'libs,files'})
	argv = [probe]
	if tree['mode'] == 'dlopen-from':
		argv += ['--from', tree['requester']]
	argv.append(tree['name'])
	p = run(argv, cwd=tree['cwd'], env=env)
	out = p.stdout.decode(errors='replace')
	err = p.stderr.decode(errors='replace')
	t.raw = '$ dlopen-probe exit %d\n%s%s' % (p.returncode, out, err)
	news, pre = [], []
	for line in out.splitlines():
		tag, _, rest = line.partition(' ')
		if tag == 'new':
			news.append(rest)
		elif tag == 'pre':
			pre.append(rest)
		elif tag == 'error':
			t.error = rest
		elif tag == 'fromerror':
			t.skip = 'the requester itself does not load: ' + rest
			return t
	if p.returncode not in (0, 1):
		t.skip = 'HARNESS: dlopen-probe exit %d: %s' % (p.returncode, err[-500:])
		return t
	marker = err.find('dlopen-probe: begin\n')
	if marker < 0:
		t.skip = 'HARNESS: no begin marker from dlopen-probe'
		return t
	reqs = parse_debug(err[marker:])
	fatal_path = fatal_msg = None
	if t.error is not None and reqs:
		# dlerror(): "NAME: cannot open shared object file: …" when not
		# found; "PATH: invalid ELF header" and the like when fatal.
		last = reqs[-1]
		cand = last['tried'][-1][0] if last['tried'] else last['name']
		if not last['mapped'] and t.error.startswith(cand + ': ') and \
		   'cannot open shared object file' not in t.error and \
		   'wrong ELF class' not in t.error:
			fatal_path, fatal_msg = cand, t.error[len(cand) + 2:]
	# LD_DEBUG shows a dlopen()ed name with its $ORIGIN unexpanded (a
	# NEEDED one expanded); glibc expands it with the caller's directory,
	# made absolute, not normalised.
	if reqs and tree['mode'] == 'dlopen-from' and '$' in reqs[0]['name']:
		origin = os.path.dirname(os.path.join(tree['cwd'], tree['requester']))
		reqs[0]['expanded'] = re.sub(r'\$\{ORIGIN\}|\$ORIGIN',
					     lambda _: origin, reqs[0]['name'])
	t.entries, t.dedup = interpret(reqs, fatal_path, fatal_msg, True,
				       tree['cwd'], loaded_before=pre + [LDSO])
	if t.error is not None and t.entries and \
	   t.entries[-1]['state'] == 'not_found':
		t.entries[-1]['error'] = t.error
	if t.error is None:
		ours = [e['path'] for e in t.entries]
		if news != ours:
			t.skip = ('HARNESS: LD_DEBUG and the link map disagree:\n'
				  '  link map: %r\n  debug:    %r' % (news, ours))
	return t


def loader_truth(tree, probe, kit):
	if tree['mode'] == 'list':
		t = truth_list(tree, kit)
	else:
		t = truth_dlopen(tree, probe, kit)
	if not t.skip:
		llp = llp_dirs(tree, kit)
		for e in t.entries:
			if e['state'] == 'found':
				e['vias'] = sorted(exact_via(e, llp, tree['cwd']))
	return t


# ---------------------------------------------------------------------
# cudawiz's answer.

def cudawiz_argv(tree, cudawiz):
	argv = [cudawiz, 'why']
	if tree['mode'] != 'list':
		argv.append(tree['name'])
	if tree['mode'] != 'dlopen':
		argv += ['--from', tree['requester']]
	return argv + ['--json']


def cudawiz_env(tree):
	env = loader_env(tree['ld_library_path'], {})
	for k in ('ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS'):
		if k in os.environ:
			env[k] = os.environ[k]
	return env


def run_cudawiz(tree, cudawiz):
	p = run(cudawiz_argv(tree, cudawiz), cwd=tree['cwd'],
		env=cudawiz_env(tree))
	out = p.stdout.decode(errors='replace')
	err = p.stderr.decode(errors='replace')
	try:
		doc = json.loads(out)
	except ValueError:
		doc = None
	return p.returncode, doc, out, err


def found_step(doc):
	for s in doc.get('steps') or []:
		if s.get('result') == 'found':
			return s
	return None


def cudawiz_entries(tree, doc):
	"""cudawiz's objects in load order, as (name, path, via, state,
	error): the closure entries that are not "loaded", after the name
	itself for `why NAME`."""
	out = []
	closure = doc.get('closure') or []
	if tree['mode'] != 'list':
		first_is_name = bool(closure) and closure[0].get('name') == tree['name'] \
		    and closure[0].get('needed_by') in (None, tree['requester'])
		if not first_is_name:
			via = doc.get('via')
			if via is None and doc.get('resolved'):
				st = found_step(doc)
				via = st.get('source') if st else None
			if via != 'loaded':
				out.append(c_entry(tree['name'], doc.get('resolved'),
						   via, doc.get('error')))
	for c in closure:
		if c.get('via') == 'loaded':
			continue
		out.append(c_entry(c.get('name'), c.get('resolved'), c.get('via'),
				   c.get('error')))
	return out


def c_entry(name, path, via, error):
	if path:
		state = 'found'
	elif error and is_fatal_message(error):
		state = 'fatal'
	else:
		state = 'not_found'
	return {'name': name, 'path': path, 'via': via, 'state': state,
		'error': error}


FATAL_WORDS = ('invalid ELF header', 'file too short', 'cannot read file data',
	       'only ET_DYN and ET_EXEC', 'not little-endian', 'OS ABI',
	       'ELF file version', 'ELF load command')


def is_fatal_message(msg):
	return any(w in msg for w in FATAL_WORDS)


# ---------------------------------------------------------------------
# The comparison.

def fatal_path_of(e, doc):
	"""Where cudawiz says glibc dies: the fatal step's path, else its
	error text."""
	for s in doc.get('steps') or []:
		if s.get('result') == 'fatal' and s.get('path'):
			return s['path']
	return e.get('path')


def names_match(t, c, cwd):
	if t['name'] == c['name']:
		return True
	# A NEEDED with a '/': glibc shows it with $ORIGIN expanded.
	if '/' not in t['name'] or '/' not in (c['name'] or ''):
		return False
	if t['path'] is None and c['path'] is None:
		return os.path.basename(t['name']) == os.path.basename(c['name'])
	return c['path'] is not None and t['path'] is not None and \
	    real(t['path'], cwd) == real(c['path'], cwd)


def message_core(msg):
	"""glibc's message without the leading "NAME: " or "PATH: "."""
	m = re.match(r'^(.*?): ((?:cannot open shared object file|wrong ELF class|'
		     r'invalid ELF header|file too short|cannot read file data|'
		     r'only ET_DYN|ELF file).*)$', msg or '')
	return m.group(2) if m else (msg or '')


def compare(tree, truth, rc, doc, cudawiz_stderr=''):
	"""Returns [(kind, detail)]: every way cudawiz differs from glibc."""
	bad = []
	cwd = tree['cwd']
	if rc in (98, 99) or rc < 0 or rc > 2:
		bad.append(('crash', 'exit %d: %s' % (rc, cudawiz_stderr[-800:])))
	if doc is None:
		bad.append(('no-json', 'exit %d, stdout is not JSON; stderr: %s'
			    % (rc, cudawiz_stderr.strip()[-300:])))
		return bad
	if doc.get('schema') != 'cudawiz/why/1':
		bad.append(('schema', repr(doc.get('schema'))))
	tent = truth.entries
	cent = cudawiz_entries(tree, doc)
	dedup_names = {d['name'] for d in truth.dedup}
	stop_early = tree['mode'] != 'list'
	i = j = 0
	while i < len(tent) and j < len(cent):
		t, c = tent[i], cent[j]
		if not names_match(t, c, cwd):
			rest_t = [x['name'] for x in tent[i:]]
			rest_c = [x['name'] for x in cent[j:]]
			if c['name'] in dedup_names and c['name'] not in rest_t:
				bad.append(('same-file-loaded-twice',
					    '%s resolves to %s, the file already loaded as '
					    '%s; glibc loads nothing new' % (
						c['name'], c['path'], ', '.join(
						    d['path'] for d in truth.dedup
						    if d['name'] == c['name']))))
				j += 1
				continue
			if c['name'] not in rest_t:
				bad.append(('extra-object', 'cudawiz loads %s (%s) which '
					    'glibc does not' % (c['name'], c['path'])))
				j += 1
				continue
			if t['name'] not in rest_c:
				bad.append(('missing-object', 'glibc loads %s (%s) which '
					    'cudawiz does not list' % (t['name'], t['path'])))
				i += 1
				continue
			bad.append(('order', 'glibc: %s; cudawiz: %s' % (rest_t, rest_c)))
			break
		bad += compare_entry(t, c, doc, cwd)
		i += 1
		j += 1
		if t['state'] == 'fatal' or (stop_early and t['state'] != 'found'):
			break
	for t in tent[i:]:
		bad.append(('missing-object', 'glibc: %s -> %s (%s); cudawiz lists '
			    'nothing there' % (t['name'], t['path'] or t['state'],
					       t['via'])))
	if tent and tent[-1]['state'] == 'fatal' and j < len(cent):
		bad.append(('goes-on-after-fatal', 'glibc stops at %s; cudawiz goes '
			    'on with %s' % (tent[-1]['path'],
					    [x['name'] for x in cent[j:]])))
	elif not (tent and stop_early and tent[-1]['state'] != 'found'):
		for c in cent[j:]:
			bad.append(('extra-object', 'cudawiz: %s -> %s (%s); glibc '
				    'loads nothing more' % (c['name'], c['path'],
							    c['via'])))
	ok_all = all(t['state'] == 'found' for t in tent) and truth.error is None
	want_rc = 0 if ok_all else 1
	if rc != want_rc and rc not in (98, 99):
		bad.append(('exit-status', 'exit %d, expected %d (glibc %s)' % (
		    rc, want_rc, 'loads everything' if ok_all else 'does not')))
	return bad


def real(path, cwd):
	return os.path.realpath(os.path.join(cwd, path)) if path else None


def compare_entry(t, c, doc, cwd):
	bad = []
	name = t['name']
	ts, cs = t['state'], c['state']
	if ts == 'found' and cs == 'found':
		if t['path'] != c['path']:
			if real(t['path'], cwd) == real(c['path'], cwd):
				bad.append(('path-spelling', '%s: glibc opens %s, cudawiz '
					    'says %s (the same file)' % (name, t['path'],
									 c['path'])))
			else:
				bad.append(('wrong-file', '%s: glibc opens %s (%s), '
					    'cudawiz %s (%s)' % (name, t['path'], t['via'],
								 c['path'], c['via'])))
				return bad
		if c['via'] not in t.get('vias', [t['via']]):
			bad.append(('via', '%s: glibc finds it via %s, cudawiz says '
				    '%s' % (name, '/'.join(t.get('vias', [t['via']])),
					    c['via'])))
	elif ts == 'found':
		bad.append(('missed' if cs == 'not_found' else 'false-fatal',
			    '%s: glibc opens %s (%s); cudawiz: %s' % (
				name, t['path'], t['via'], c['error'])))
	elif ts == 'not_found':
		if cs == 'found':
			bad.append(('phantom', '%s: glibc finds nothing; cudawiz '
				    'says %s (%s)' % (name, c['path'], c['via'])))
		elif cs == 'fatal':
			bad.append(('false-fatal', '%s: glibc finds nothing (and '
				    'goes on); cudawiz: %s' % (name, c['error'])))
		elif not c['error']:
			bad.append(('error-message', '%s: not found, but cudawiz '
				    'gives no error' % name))
		elif t['error'] and message_core(t['error']) not in c['error']:
			bad.append(('error-message', '%s: glibc says "%s", cudawiz '
				    '"%s"' % (name, t['error'], c['error'])))
	else:	# fatal
		if cs != 'fatal':
			bad.append(('missed-fatal', '%s: glibc stops at %s: %s; '
				    'cudawiz: %s' % (name, t['path'], t['error'],
						     c['path'] or c['error'])))
		else:
			where = fatal_path_of(c, doc)
			if t['error'] not in (c['error'] or ''):
				bad.append(('error-message', '%s: glibc stops with "%s", '
					    'cudawiz "%s"' % (name, t['error'],
							      c['error'])))
			if where and where != t['path'] and not (c['error'] or '').startswith(t['path']):
				if real(where, cwd) != real(t['path'], cwd):
					bad.append(('wrong-fatal-file', '%s: glibc stops at '
						    '%s, cudawiz at %s' % (name, t['path'],
									   where)))
	return bad


# ---------------------------------------------------------------------
# Driving it.

def shell_line(tree, argv, extra_env=None):
	env = loader_env(tree['ld_library_path'], extra_env or {})
	envs = ' '.join('%s=%s' % (k, shlex.quote(v)) for k, v in sorted(env.items()))
	return 'cd %s && env -i %s %s' % (shlex.quote(tree['cwd']), envs,
					  ' '.join(shlex.quote(a) for a in argv))


def truth_line(tree, probe):
	if tree['mode'] == 'list':
		return shell_line(tree, [LDSO, tree['requester']],
				  {'LD_TRACE_LOADED_OBJECTS': '1'})
	argv = [probe]
	if tree['mode'] == 'dlopen-from':
		argv += ['--from', tree['requester']]
	return shell_line(tree, argv + [tree['name']])


def do_tree(seed, args, kit, keep=False):
	root = os.path.join(args.work, 'seed-%d' % seed)
	if os.path.lexists(root):
		shutil.rmtree(root)
	tr = Tree(seed, root, kit, args.modes.split(','))
	res = {'seed': seed, 'root': root, 'kinds': [], 'skip': None}
	try:
		tr.build()
	except (RuntimeError, OSError, subprocess.SubprocessError) as e:
		res['skip'] = 'HARNESS: cannot build the tree: %s' % e
		return res
	tree = tr.describe()
	res['tree'] = tree
	truth = loader_truth(tree, args.probe, kit)
	res['truth'] = truth
	if truth.skip:
		res['skip'] = truth.skip
	else:
		rc, doc, out, err = run_cudawiz(tree, args.cudawiz)
		res.update(rc=rc, doc=doc, out=out, err=err)
		res['kinds'] = compare(tree, truth, rc, doc, err)
	if not keep and not res['kinds'] and not (res['skip'] or '').startswith('HARNESS'):
		shutil.rmtree(root, ignore_errors=True)
	return res


def guarded_tree(seed, args, kit):
	"""do_tree(), with a fault of this script reported against its
	tree instead of ending the run."""
	try:
		return do_tree(seed, args, kit)
	except Exception:	# pylint: disable=broad-except
		return {'seed': seed, 'kinds': [], 'root': None,
			'skip': 'HARNESS: gentree.py failed:\n' + traceback.format_exc()}


def report_lines(res, args):
	tree = res['tree']
	lines = ['mode %s; features: %s' % (tree['mode'], ' '.join(tree['features']))]
	for kind, detail in res['kinds']:
		lines.append('%s: %s' % (kind, detail))
	lines.append('tree kept: %s (tree.json describes it)' % res['root'])
	lines.append('glibc:   ' + truth_line(tree, args.probe))
	lines.append('cudawiz: ' + shell_line(tree, cudawiz_argv(tree, args.cudawiz)))
	lines.append('rebuild: python3 %s one --seed %d --modes %s --cudawiz %s '
		     '--probe %s --work %s' % (
			 shlex.quote(os.path.abspath(__file__)), res['seed'],
			 args.modes, shlex.quote(args.cudawiz),
			 shlex.quote(args.probe), shlex.quote(args.work)))
	return lines


def cmd_run(args):
	os.makedirs(args.work, exist_ok=True)
	kit = Kit(args.work)
	seeds = list(range(args.first, args.first + args.count))
	print('1..%d' % len(seeds))
	print('# seeds %d..%d, modes %s, %d jobs, work dir %s' % (
	    seeds[0], seeds[-1], args.modes, args.jobs, args.work))
	sys.stdout.flush()
	kinds = {}
	failed = skipped = 0
	with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
		results = pool.map(lambda s: guarded_tree(s, args, kit), seeds)
		for n, res in enumerate(results, 1):
			seed = res['seed']
			if res['skip'] and res['skip'].startswith('HARNESS'):
				failed += 1
				print('not ok %d - seed %d: %s' % (n, seed,
								   res['skip'].splitlines()[0]))
				for line in res['skip'].splitlines()[1:]:
					print('#   ' + line)
				if 'tree' in res:
					for line in report_lines(res, args)[-4:]:
						print('#   ' + line)
				kinds['harness'] = kinds.get('harness', 0) + 1
			elif res['skip']:
				skipped += 1
				print('ok %d - seed %d # SKIP %s' % (n, seed, res['skip']))
			elif res['kinds']:
				failed += 1
				ks = sorted({k for k, _ in res['kinds']})
				for k in ks:
					kinds[k] = kinds.get(k, 0) + 1
				print('not ok %d - seed %d (%s): %s' % (
				    n, seed, res['tree']['mode'], ', '.join(ks)))
				for line in report_lines(res, args):
					print('#   ' + line)
			else:
				print('ok %d - seed %d (%s, %d objects)' % (
				    n, seed, res['tree']['mode'],
				    len(res['truth'].entries)))
			sys.stdout.flush()
	print('# %d trees: %d agree, %d disagree, %d skipped' % (
	    len(seeds), len(seeds) - failed - skipped, failed, skipped))
	for k in sorted(kinds, key=lambda k: -kinds[k]):
		print('#   %-28s %d trees' % (k, kinds[k]))
	if failed == 0 and not args.keep:
		shutil.rmtree(args.work, ignore_errors=True)
	return 1 if failed else 0


def cmd_one(args):
	os.makedirs(args.work, exist_ok=True)
	kit = Kit(args.work)
	res = do_tree(args.seed, args, kit, keep=True)
	if 'tree' not in res:
		print(res['skip'])
		return 2
	tree = res['tree']
	print(json.dumps({k: v for k, v in tree.items() if k != 'layout'}, indent=1))
	print('layout:')
	for item in tree['layout']:
		print('  %-40s %s' % (item['path'], item['what']))
	print()
	print(res['truth'].raw if args.verbose else
	      '\n'.join(l for l in res['truth'].raw.splitlines()
			if 'trying file' not in l and 'search path' not in l))
	print('glibc entries:')
	for e in res['truth'].entries:
		print('  ', e)
	if res['truth'].dedup:
		print('glibc dedup:', res['truth'].dedup)
	if res['skip']:
		print('SKIP:', res['skip'])
		return 0
	print('cudawiz exit %d' % res['rc'])
	print(res['out'])
	print(res['err'])
	print('cudawiz entries:')
	if res['doc'] is not None:
		for e in cudawiz_entries(tree, res['doc']):
			print('  ', e)
	for line in report_lines(res, args):
		print(line)
	return 1 if res['kinds'] else 0


# ---------------------------------------------------------------------
# The comparison must catch wrong answers: fake a perfect cudawiz from
# glibc's own answer, spoil it in each way, and see each one caught.

def perfect_doc(tree, truth):
	closure = []
	for e in truth.entries:
		closure.append({'name': e['name'], 'needed_by': None,
				'resolved': e['path'] if e['state'] == 'found' else None,
				'via': e['via'], 'error': e['error'] or (
				    None if e['state'] == 'found' else
				    e['name'] + ': cannot open shared object file')})
	doc = {'schema': 'cudawiz/why/1', 'soname': tree['name'],
	       'from': tree['requester'], 'resolved': None, 'error': None,
	       'steps': [], 'other_copies': [], 'closure': closure,
	       'findings': []}
	if tree['mode'] != 'list' and closure:
		closure[0]['name'] = tree['name']
	return doc


def cmd_selftest(args):
	os.makedirs(args.work, exist_ok=True)
	kit = Kit(args.work)
	n = 0
	failed = 0

	def check(ok, what):
		nonlocal n, failed
		n += 1
		print('%s %d - %s' % ('ok' if ok else 'not ok', n, what))
		if not ok:
			failed += 1

	covered = set()
	seed = args.first
	def enough():
		return {k[0] for k in covered} == set(MODES) and \
		    any(k[2] for k in covered) and len(covered) >= 5

	while not enough() and seed < args.first + 400:
		tr = Tree(seed, os.path.join(args.work, 'self-%d' % seed), kit)
		seed += 1
		tr.build()
		tree = tr.describe()
		truth = loader_truth(tree, args.probe, kit)
		states = {e['state'] for e in truth.entries}
		key = (tree['mode'], 'found' in states and 'not_found' in states,
		       'fatal' in states)
		if truth.skip or key in covered or not truth.entries:
			shutil.rmtree(tr.root, ignore_errors=True)
			continue
		if not any(e['state'] == 'found' for e in truth.entries):
			shutil.rmtree(tr.root, ignore_errors=True)
			continue
		covered.add(key)
		label = 'seed %d (%s)' % (tr.seed, tree['mode'])
		ok_all = all(e['state'] == 'found' for e in truth.entries) and \
		    truth.error is None
		doc = perfect_doc(tree, truth)
		got = compare(tree, truth, 0 if ok_all else 1, doc)
		check(got == [], '%s: glibc\'s own answer agrees (%s)' % (label, got))
		k = next(i for i, e in enumerate(truth.entries) if e['state'] == 'found')
		spoilt = json.loads(json.dumps(doc))
		spoilt['closure'][k]['resolved'] = '/elsewhere/' + os.path.basename(
		    truth.entries[k]['path'])
		got = compare(tree, truth, 0 if ok_all else 1, spoilt)
		check(any(x[0] == 'wrong-file' for x in got), '%s: a wrong path is caught' % label)
		spoilt = json.loads(json.dumps(doc))
		spoilt['closure'][k]['via'] = 'cache' if truth.entries[k]['via'] != 'cache' else 'default'
		got = compare(tree, truth, 0 if ok_all else 1, spoilt)
		check(any(x[0] == 'via' for x in got), '%s: a wrong step is caught' % label)
		spoilt = json.loads(json.dumps(doc))
		del spoilt['closure'][k]
		got = compare(tree, truth, 0 if ok_all else 1, spoilt)
		check(got != [], '%s: a missing object is caught' % label)
		spoilt = json.loads(json.dumps(doc))
		spoilt['closure'][k]['resolved'] = None
		spoilt['closure'][k]['error'] = 'x: cannot open shared object file'
		got = compare(tree, truth, 1, spoilt)
		check(any(x[0] == 'missed' for x in got), '%s: a missed object is caught' % label)
		got = compare(tree, truth, 1 if ok_all else 0, doc)
		check(any(x[0] == 'exit-status' for x in got), '%s: a wrong exit status is caught' % label)
		spoilt = json.loads(json.dumps(doc))
		spoilt['closure'].append({'name': 'libcwtextra.so.1', 'resolved': '/x/libcwtextra.so.1',
					  'via': 'default', 'error': None})
		got = compare(tree, truth, 0 if ok_all else 1, spoilt)
		# dlopen stops at the first name it cannot find; cudawiz may
		# go on like ldd. Past a fatal error nothing goes on.
		expect_caught = not (tree['mode'] != 'list' and
				     truth.entries[-1]['state'] == 'not_found')
		check((got != []) == expect_caught, '%s: an extra object is %s' % (
		    label, 'caught' if expect_caught else 'ignored after dlopen fails'))
		if truth.entries[-1]['state'] == 'fatal':
			spoilt = json.loads(json.dumps(doc))
			spoilt['closure'][-1]['error'] = 'x: cannot open shared object file'
			got = compare(tree, truth, 1, spoilt)
			check(any(x[0] == 'missed-fatal' for x in got),
			      '%s: a missed fatal error is caught' % label)
		shutil.rmtree(tr.root, ignore_errors=True)
	check(enough(), 'trees of every mode, and one where glibc stops, were '
	      'found for the self-test (%s)' % sorted(covered))
	print('1..%d' % n)
	shutil.rmtree(args.work, ignore_errors=True)
	return 1 if failed else 0


def main():
	ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
	sub = ap.add_subparsers(dest='cmd', required=True)
	for name in ('run', 'one', 'selftest'):
		s = sub.add_parser(name)
		s.add_argument('--work', required=True)
		s.add_argument('--probe', required=True)
		s.add_argument('--modes', default=','.join(MODES))
		s.add_argument('--first', type=int, default=1)
		if name != 'selftest':
			s.add_argument('--cudawiz', required=True)
		if name == 'run':
			s.add_argument('--count', type=int, default=200)
			s.add_argument('--jobs', type=int, default=2)
			s.add_argument('--keep', action='store_true')
		if name == 'one':
			s.add_argument('--seed', type=int, required=True)
			s.add_argument('--verbose', action='store_true')
	args = ap.parse_args()
	for a in ('work', 'probe', 'cudawiz'):
		if getattr(args, a, None):
			setattr(args, a, os.path.abspath(getattr(args, a)))
	if args.cmd == 'run':
		return cmd_run(args)
	if args.cmd == 'one':
		return cmd_one(args)
	return cmd_selftest(args)


if __name__ == '__main__':
	sys.exit(main())
