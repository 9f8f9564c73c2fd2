# Godot 3's side of the Godot peer (peers/godot/README.md): a SceneTree script run by
# `godot3-server -s peer.gd` in a private project folder that the C++ client (slidecheck_godot)
# writes, connected back to that client over loopback TCP (GDScript 3 cannot read a pipe).
#
# Everything happens inside _initialize(), before the first frame: there, SceneTree's process and
# physics frame times are still exactly 1, so the velocity handed to move_and_slide is the
# displacement of one call, with no division by a frame time. Bodies added to the tree are in the
# physics space at once, and move_and_slide / move_and_collide query it directly.
#
# Messages, little-endian both ways: u32 op, u32 byte length, payload. Floats are float32, read
# and written bit for bit (StreamPeer's get_float/put_float), so positions are Godot's exactly.
#   op 1 scene:  u32 n, then n triangles of 3 corners (xyz)          -> u32 0
#   op 2 query:  see run_query                                       -> u32 0, the passes' results
#   op 0 quit
# A reply starting with u32 1 carries an error text instead. The connection closing ends Godot.
extends SceneTree

const OP_QUIT = 0
const OP_SCENE = 1
const OP_QUERY = 2
const SHAPE_SPHERE = 0
const SHAPE_CAPSULE = 1

var peer: StreamPeerTCP
var world: StaticBody = null
var world_shape: ConcavePolygonShape = null

func _initialize():
	var port = int(OS.get_environment("SLIDECHECK_GODOT_PORT"))
	peer = StreamPeerTCP.new()
	if peer.connect_to_host("127.0.0.1", port) != OK:
		printerr("slidecheck godot peer: cannot connect to port ", port)
		quit()
		return
	var waited = 0
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING and waited < 10000:
		OS.delay_msec(1)
		waited += 1
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		printerr("slidecheck godot peer: no connection to port ", port)
		quit()
		return
	peer.set_no_delay(true)
	serve()
	quit()

# Answers messages until the client says quit or the connection closes.
func serve():
	while true:
		var header = peer.get_data(8)
		if header[0] != OK:
			return
		var h = StreamPeerBuffer.new()
		h.data_array = header[1]
		var op = h.get_u32()
		var length = h.get_u32()
		var payload = PoolByteArray()
		if length > 0:
			var body = peer.get_data(length)
			if body[0] != OK:
				return
			payload = body[1]
		if op == OP_QUIT:
			return
		var request = StreamPeerBuffer.new()
		request.data_array = payload
		var reply = StreamPeerBuffer.new()
		if op == OP_SCENE:
			build_world(request)
			reply.put_u32(0)
		elif op == OP_QUERY:
			if world == null:
				fail(reply, "a query before any scene")
			else:
				reply.put_u32(0)
				run_query(request, reply)
		else:
			fail(reply, "unknown message " + str(op))
		var out = StreamPeerBuffer.new()
		out.put_u32(reply.data_array.size())
		out.put_data(reply.data_array)
		if peer.put_data(out.data_array) != OK:
			return

func fail(reply: StreamPeerBuffer, text: String):
	reply.put_u32(1)
	reply.put_data(text.to_utf8())

func read_vec(b: StreamPeerBuffer) -> Vector3:
	var x = b.get_float()
	var y = b.get_float()
	var z = b.get_float()
	return Vector3(x, y, z)

func put_vec(b: StreamPeerBuffer, v: Vector3):
	b.put_float(v.x)
	b.put_float(v.y)
	b.put_float(v.z)

# The scene as one StaticBody holding one ConcavePolygonShape, every triangle in file order.
func build_world(b: StreamPeerBuffer):
	if world != null:
		root.remove_child(world)
		world.free()
	var n = b.get_u32()
	var faces = PoolVector3Array()
	faces.resize(3 * n)
	for i in range(3 * n):
		faces[i] = read_vec(b)
	world_shape = ConcavePolygonShape.new()
	world_shape.set_faces(faces)
	var holder = CollisionShape.new()
	holder.shape = world_shape
	world = StaticBody.new()
	world.add_child(holder)
	root.add_child(world)

# The character's collision shape: a sphere of `radius`, or Godot 3's CapsuleShape of `radius`
# and `height`, which lies along its local Z axis with `height` the distance between its cap
# centres (the cylinder part; the whole length is height + 2 radius: Godot 3.2's class reference,
# CapsuleShape). The client sends height = 2 |half_axis| and the world axis (0 x, 1 y, 2 z) the
# half axis lies along; the holder's basis turns local Z onto that axis by permuting the axes
# (a rotation, entries 0 and 1, so every product with it is exact).
func character_shape(kind: int, radius: float, height: float, axis: int) -> CollisionShape:
	var holder = CollisionShape.new()
	if kind == SHAPE_CAPSULE:
		var capsule = CapsuleShape.new()
		capsule.radius = radius
		capsule.height = height
		holder.shape = capsule
		# Basis(x, y, z) takes the images of the local axes (its columns).
		if axis == 0:
			holder.transform = Transform(Basis(Vector3(0, 1, 0), Vector3(0, 0, 1), Vector3(1, 0, 0)), Vector3())
		elif axis == 1:
			holder.transform = Transform(Basis(Vector3(0, 0, 1), Vector3(1, 0, 0), Vector3(0, 1, 0)), Vector3())
	else:
		var sphere = SphereShape.new()
		sphere.radius = radius
		holder.shape = sphere
	return holder

# One query: u32 shape kind, radius, capsule height, u32 capsule axis, start (xyz), up (xyz), safe_margin,
# floor_max_angle, shape_margin, u32 max_slides, u32 flags (1 stop_on_slope, 2 infinite_inertia),
# u32 passes, then each pass's displacement (xyz). Per pass the reply holds the single sweep from
# the pass's start (u32 hit; on a hit its travel and contact point), the positions the body was
# moved to within move_and_slide (u32 count, then each), and its position after the pass.
func run_query(b: StreamPeerBuffer, reply: StreamPeerBuffer):
	var kind = b.get_u32()
	var radius = b.get_float()
	var height = b.get_float()
	var axis = b.get_u32()
	var start = read_vec(b)
	var up = read_vec(b)
	var safe_margin = b.get_float()
	var floor_max_angle = b.get_float()
	var shape_margin = b.get_float()
	var max_slides = b.get_u32()
	var flags = b.get_u32()
	var stop_on_slope = (flags & 1) != 0
	var infinite_inertia = (flags & 2) != 0
	var passes = b.get_u32()

	world_shape.margin = shape_margin
	var holder = character_shape(kind, radius, height, axis)
	holder.shape.margin = shape_margin
	var body = KinematicBody.new()
	body.set_safe_margin(safe_margin)
	body.add_child(holder)
	root.add_child(body)
	body.global_transform = Transform(Basis(), start)
	for _i in range(passes):
		var d = read_vec(b)
		var collision = body.move_and_collide(d, infinite_inertia, true, true)
		if collision == null:
			reply.put_u32(0)
		else:
			reply.put_u32(1)
			put_vec(reply, collision.travel)
			put_vec(reply, collision.position)
		var from = body.global_transform.origin
		body.move_and_slide(d, up, stop_on_slope, max_slides, floor_max_angle, infinite_inertia)
		# Each slide's move_and_collide added its travel to the origin in float, in this order.
		var count = body.get_slide_count()
		reply.put_u32(count)
		var at = from
		for i in range(count):
			at += body.get_slide_collision(i).travel
			put_vec(reply, at)
		put_vec(reply, body.global_transform.origin)
	root.remove_child(body)
	body.free()
