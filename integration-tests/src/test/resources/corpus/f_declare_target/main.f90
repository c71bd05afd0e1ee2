! Uses the module's device globals and procedure from a target region in another file.
program f_declare_target
  use physics
  implicit none
  real(8) :: v
  integer :: i
  v = 100.0d0
  !$omp target map(tofrom: v)
  do i = 1, 20
    v = step(v)
    calls = calls + 1
  end do
  !$omp end target
  !$omp target update from(calls)
  write (*, '(a,f12.6,a,i0)') 'v=', v, ' calls=', calls
end program f_declare_target
